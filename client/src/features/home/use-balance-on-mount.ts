import { refreshBalance } from '@client/lib/session-actions'
import { session } from '@client/lib/session-store'
import { useEffect } from 'react'

/** A logged-in player sees a fresh balance whenever the page opens. */
export function useBalanceOnMount(): void {
  useEffect(() => {
    if (session.get().isLogin) refreshBalance().catch(() => undefined)
  }, [])
}
