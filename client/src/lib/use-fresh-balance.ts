import { useEffect } from 'react'
import { refreshBalance } from './session-actions'
import { session } from './session-store'

/** How soon after the last refresh a page coming back into view asks for the balance again. */
export const REFOCUS_MIN_MS = 1_000

/**
 * A logged-in player's balance is read when a page that shows it opens, and again whenever the
 * page is shown or focused again (a tab switched back, the app brought to the front), so money that
 * moved meanwhile — a refunded withdrawal, a settlement while the tab slept — shows at once.
 */
export function useFreshBalance(): void {
  useEffect(() => {
    let last = 0
    const refresh = () => {
      if (!session.get().isLogin || Date.now() - last < REFOCUS_MIN_MS) return
      last = Date.now()
      refreshBalance().catch(() => undefined)
    }
    refresh()
    const onVisible = () => {
      if (document.visibilityState === 'visible') refresh()
    }
    document.addEventListener('visibilitychange', onVisible)
    window.addEventListener('focus', refresh)
    return () => {
      document.removeEventListener('visibilitychange', onVisible)
      window.removeEventListener('focus', refresh)
    }
  }, [])
}
