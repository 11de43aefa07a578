/**
 * Waiting for a state, not for time: each helper checks at once and again on every change it is
 * told of, and has no time limit of its own (the test's time-out is the only one). For a real
 * server, antd-mobile's first render or a store, which can be slow on a busy machine, where a
 * polled wait with a deadline would fail a correct test.
 */

/** Resolves once `holds()` is true, checked now and whenever `subscribe` reports a change. */
export function until(subscribe: (onChange: () => void) => () => void, holds: () => boolean): Promise<void> {
  if (holds()) return Promise.resolve()
  return new Promise((resolve) => {
    const stop = subscribe(() => {
      if (!holds()) return
      stop()
      resolve()
    })
  })
}

/** Resolves once the page's text passes `holds`, checked on every change to the document. */
export function untilText(holds: (text: string) => boolean): Promise<void> {
  return until(
    (onChange) => {
      const observer = new MutationObserver(onChange)
      observer.observe(document.body, { childList: true, subtree: true, characterData: true })
      return () => observer.disconnect()
    },
    () => holds(document.body.textContent ?? ''),
  )
}

/** The page shows `text` (a toast, a message). */
export const untilShown = (text: string): Promise<void> => untilText((t) => t.includes(text))

/** The page no longer shows `text`. */
export const untilGone = (text: string): Promise<void> => untilText((t) => !t.includes(text))
