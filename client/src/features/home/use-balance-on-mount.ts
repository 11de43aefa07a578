import { useEffect } from 'react'
import { refreshBalance } from '../../lib/session-actions'
import { session } from '../../lib/session-store'

/** A logged-in player sees a fresh balance whenever the page opens. */
export function useBalanceOnMount(): void {
  useEffect(() => {
    if (session.get().isLogin) refreshBalance().catch(() => undefined)
  }, [])
}
