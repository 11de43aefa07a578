import Toast from 'antd-mobile/es/components/toast'
import { TOAST_DURATION_MS } from '../../../shared/constants'
import { MSG } from '../../../shared/messages'
import './antd-react19'

/**
 * Toasts on top of antd-mobile's single toast. The loading toast is tracked so that closing it
 * never closes a message that replaced it.
 */

type ToastIcon = 'success' | 'fail'

let loadingOpen = false
let pendingLoads = 0

export function showToast(content: string, icon?: ToastIcon, duration: number = TOAST_DURATION_MS): void {
  loadingOpen = false
  Toast.show(icon ? { content, icon, duration } : { content, duration })
}

/** Shows `加载中...` until every caller that asked for it has called the returned function. */
export function holdLoadingToast(): () => void {
  pendingLoads += 1
  if (!loadingOpen) {
    Toast.show({ icon: 'loading', content: MSG.loading, duration: 0, maskClickable: true })
    loadingOpen = true
  }
  let released = false
  return () => {
    if (released) return
    released = true
    pendingLoads -= 1
    if (pendingLoads === 0 && loadingOpen) {
      loadingOpen = false
      Toast.clear()
    }
  }
}

export function clearToast(): void {
  loadingOpen = false
  Toast.clear()
}
