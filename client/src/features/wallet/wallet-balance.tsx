import { HideAmountToggle } from '@client/components/balance-text/balance-text'
import { RefreshButton } from '@client/components/refresh-button/refresh-button'
import { refreshBalance } from '@client/lib/session-actions'
import { BALANCE_PLACEHOLDER, useSession } from '@client/lib/session-store'
import { useFreshBalance } from '@client/lib/use-fresh-balance'
import { AmountText } from './amount-text'

/**
 * The player's USDT balance at the top of a wallet page, with the hide-amount eye: fresh on open
 * and each time the page is shown again (tab back into view, window focus), so a withdrawal
 * refunded meanwhile shows at once. Until the first balance arrives it shows a placeholder.
 */
export function WalletBalance({ label = '账户余额' }: { label?: string }) {
  const balance = useSession((s) => s.balance)
  useFreshBalance()

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
