import { DOUBLE_TAP_WINDOW_MS } from '@shared/constants'

/**
 * Blocks pinch, gesture and double-tap zoom (docs/product.md#pages) where the viewport meta and
 * `touch-action` alone are ignored (older iOS Safari). Taps keep working: a second tap inside the
 * double-tap window has its zoom cancelled but its click delivered; form fields are left alone so
 * the caret and the keyboard behave.
 */

const FORM_FIELD = 'input, textarea, select, [contenteditable=""], [contenteditable="true"]'

function isFormField(target: EventTarget | null): boolean {
  return typeof Element !== 'undefined' && target instanceof Element && target.closest(FORM_FIELD) !== null
}

export function installZoomGuard(doc: Document = document, now: () => number = () => Date.now()): () => void {
  let lastTouchEnd = Number.NEGATIVE_INFINITY

  const onTouchStart = (event: TouchEvent) => {
    if (event.touches.length > 1) event.preventDefault()
  }
  const onTouchMove = (event: TouchEvent) => {
    if (event.touches.length > 1) event.preventDefault()
  }
  const onTouchEnd = (event: TouchEvent) => {
    const at = now()
    const quick = at - lastTouchEnd <= DOUBLE_TAP_WINDOW_MS
    lastTouchEnd = at
    if (!quick || !event.cancelable || isFormField(event.target)) return
    event.preventDefault()
    // preventDefault also swallows the click this tap would have made; deliver it ourselves.
    const target = event.target
    if (typeof HTMLElement !== 'undefined' && target instanceof HTMLElement) target.click()
  }
  const onGesture = (event: Event) => event.preventDefault()

  const active: AddEventListenerOptions = { passive: false }
  doc.addEventListener('touchstart', onTouchStart, active)
  doc.addEventListener('touchmove', onTouchMove, active)
  doc.addEventListener('touchend', onTouchEnd, active)
  for (const type of ['gesturestart', 'gesturechange', 'gestureend'])
    doc.addEventListener(type, onGesture, active)

  return () => {
    doc.removeEventListener('touchstart', onTouchStart)
    doc.removeEventListener('touchmove', onTouchMove)
    doc.removeEventListener('touchend', onTouchEnd)
    for (const type of ['gesturestart', 'gesturechange', 'gestureend'])
      doc.removeEventListener(type, onGesture)
  }
}
