import { TOAST_DURATION_MS } from '@shared/constants'
import { MSG } from '@shared/messages'
import './antd-react19'

/**
 * Toasts on top of antd-mobile's single toast. The Toast module (and the animation library under
 * it) is loaded on first use or when preloadToast() runs after start-up, so the first screen does
 * not wait for it. The loading toast is tracked so that closing it never closes a message that
 * replaced it.
 */

type ToastApi = typeof import('antd-mobile/es/components/toast').default
type ToastIcon = 'success' | 'fail'

let toastModule: Promise<ToastApi> | null = null

function loadToast(): Promise<ToastApi> {
  toastModule ??= import('antd-mobile/es/components/toast').then(
    (m) => m.default,
    (err: unknown) => {
      toastModule = null
      throw err
    },
  )
  return toastModule
}

function withToast(run: (toast: ToastApi) => void): void {
  loadToast().then(run, (err: unknown) => console.error('toast could not load', err))
}

/** Starts loading the Toast code now, so that the first message is not late. */
export function preloadToast(): void {
  loadToast().catch(() => undefined)
}

let loadingOpen = false
let pendingLoads = 0

export function showToast(content: string, icon?: ToastIcon, duration: number = TOAST_DURATION_MS): void {
  loadingOpen = false
  withToast((toast) => toast.show(icon ? { content, icon, duration } : { content, duration }))
}

/** Shows `加载中...` until every caller that asked for it has called the returned function. */
export function holdLoadingToast(): () => void {
  pendingLoads += 1
  if (!loadingOpen) {
    loadingOpen = true
    withToast((toast) => {
      // Released, or replaced by a message, before the code arrived.
      if (loadingOpen) toast.show({ icon: 'loading', content: MSG.loading, duration: 0, maskClickable: true })
    })
  }
  let released = false
  return () => {
    if (released) return
    released = true
    pendingLoads -= 1
    if (pendingLoads === 0 && loadingOpen) {
      loadingOpen = false
      withToast((toast) => toast.clear())
    }
  }
}

export function clearToast(): void {
  loadingOpen = false
  withToast((toast) => toast.clear())
}
