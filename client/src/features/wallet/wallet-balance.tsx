import { HideAmountToggle } from '@client/components/balance-text/balance-text'
import { RefreshButton } from '@client/components/refresh-button/refresh-button'
import { refreshBalance } from '@client/lib/session-actions'
import { BALANCE_PLACEHOLDER, session, useSession } from '@client/lib/session-store'
import { useEffect } from 'react'
import { AmountText } from './amount-text'

/** How soon after the last refresh a page coming back into view asks for the balance again. */
const REFOCUS_MIN_MS = 1_000

/**
 * The player's USDT balance at the top of a wallet page, with the hide-amount eye: fresh on open
 * and each time the page is shown again (tab back into view, window focus), so a withdrawal
 * refunded meanwhile shows at once. Until the first balance arrives it shows a placeholder.
 */
export function WalletBalance({ label = '账户余额' }: { label?: string }) {
  const balance = useSession((s) => s.balance)
  useBalanceOnShow()

  return (
    <section className="wallet-balance" aria-label={label}>
      <div className="wallet-balance__top">
        <span>{label}</span>
        <span className="wallet-balance__tools">
          <HideAmountToggle />
          <RefreshButton label="刷新余额" onRefresh={refreshBalance} />
        </span>
      </div>
      <span data-testid="wallet-balance">
        {balance === null ? (
          <span className="wallet-amount wallet-balance__amount" aria-busy="true">
            <span className="wallet-amount__value">{BALANCE_PLACEHOLDER}</span>
            <span className="wallet-amount__unit">USDT</span>
          </span>
        ) : (
          <AmountText className="wallet-balance__amount" value={balance} />
        )}
      </span>
    </section>
  )
}

/** Refreshes the balance on mount and whenever the page is shown or focused again. */
export function useBalanceOnShow(): void {
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
