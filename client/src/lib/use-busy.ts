import { useCallback, useRef, useState } from 'react'

/**
 * One action at a time for a button or form that sends something. `busy` is true while the action
 * runs (the button's loading state); a second `run` meanwhile, a double tap say, is ignored. A
 * failed action ends there, since what failed has already told the player why (the HTTP client's
 * toast, ./http.ts, or a form field's message): an action handles inside itself only what it does
 * differently on failure.
 */
export function useBusy(): readonly [busy: boolean, run: (action: () => Promise<unknown>) => Promise<void>] {
  const [busy, setBusy] = useState(false)
  // The state is read by the next render; a tap in the same frame needs to see the run at once.
  const running = useRef(false)
  const run = useCallback(async (action: () => Promise<unknown>) => {
    if (running.current) return
    running.current = true
    setBusy(true)
    try {
      await action()
    } catch {
      // Already shown to the player where it failed.
    } finally {
      running.current = false
      setBusy(false)
    }
  }, [])
  return [busy, run] as const
}
