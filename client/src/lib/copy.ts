import { TOAST_DURATION_MS } from '@shared/constants'
import { MSG } from '@shared/messages'
import { showToast } from './toast'

export interface ToastRequest {
  icon: 'success' | 'fail'
  content: string
  duration: number
}
export type ToastFn = (request: ToastRequest) => void

/** The app's toast: antd-mobile `Toast.show({ icon, content, duration })` through the shared toast module. */
export const appToast: ToastFn = ({ icon, content, duration }) => showToast(content, icon, duration)

export interface CopyEnv {
  /** navigator.clipboard where the browser offers it (secure contexts only). */
  clipboard: Pick<Clipboard, 'writeText'> | undefined
  document: Document
  toast: ToastFn
}

function browserClipboard(): CopyEnv['clipboard'] {
  return typeof window !== 'undefined' && window.isSecureContext ? window.navigator.clipboard : undefined
}

/**
 * Copies through a hidden, read-only textarea and `execCommand('copy')`, for browsers without the
 * Clipboard API (plain http, old WebViews) or that refuse it. Read-only keeps the iOS keyboard down,
 * 16 px text keeps iOS from zooming, a fixed position at the top keeps the page from scrolling, and
 * setSelectionRange is what iOS Safari needs to select. The user's selection and focus are restored.
 */
export function copyWithTextarea(text: string, doc: Document): boolean {
  const selection = doc.getSelection()
  const ranges: Range[] = []
  if (selection) for (let i = 0; i < selection.rangeCount; i++) ranges.push(selection.getRangeAt(i))
  const focused = doc.activeElement instanceof HTMLElement ? doc.activeElement : null

  const area = doc.createElement('textarea')
  area.value = text
  area.setAttribute('readonly', '')
  area.setAttribute('aria-hidden', 'true')
  area.tabIndex = -1
  Object.assign(area.style, {
    position: 'fixed',
    top: '0',
    left: '0',
    width: '1px',
    height: '1px',
    padding: '0',
    border: '0',
    margin: '0',
    opacity: '0',
    fontSize: '16px',
    pointerEvents: 'none',
  })
  doc.body.appendChild(area)
  let copied = false
  try {
    area.focus({ preventScroll: true })
    area.select()
    area.setSelectionRange(0, text.length)
    copied = doc.execCommand('copy')
  } catch {
    copied = false
  } finally {
    area.remove()
    if (focused && focused !== doc.body) focused.focus({ preventScroll: true })
    if (selection) {
      selection.removeAllRanges()
      for (const range of ranges) selection.addRange(range)
    }
  }
  return copied
}

/**
 * Copies `text` and toasts 复制成功 (success) or 复制失败 (fail) for TOAST_DURATION_MS (docs/product.md#error-catalogue).
 * Tries the Clipboard API first and falls back to the textarea when it is missing or refused.
 * Resolves to whether the text was copied; never rejects.
 */
export async function copyText(text: string, env: Partial<CopyEnv> = {}): Promise<boolean> {
  const clipboard = 'clipboard' in env ? env.clipboard : browserClipboard()
  const doc = env.document ?? document
  const toast = env.toast ?? appToast
  let copied = false
  if (clipboard) {
    try {
      await clipboard.writeText(text)
      copied = true
    } catch {
      copied = false
    }
  }
  if (!copied) copied = copyWithTextarea(text, doc)
  toast(
    copied
      ? { icon: 'success', content: MSG.copySuccess, duration: TOAST_DURATION_MS }
      : { icon: 'fail', content: MSG.copyFail, duration: TOAST_DURATION_MS },
  )
  return copied
}
