import { HideAmountToggle } from '@client/components/balance-text/balance-text'
import { RefreshButton } from '@client/components/refresh-button/refresh-button'
import { refreshBalance } from '@client/lib/session-actions'
import { session, useSession } from '@client/lib/session-store'
import { useEffect } from 'react'
import { AmountText } from './amount-text'

/** The player's USDT balance at the top of a wallet page: fresh on open, with the hide-amount eye. */
export function WalletBalance({ label = '账户余额' }: { label?: string }) {
  const balance = useSession((s) => s.balance)

  useEffect(() => {
    if (session.get().isLogin) refreshBalance().catch(() => undefined)
  }, [])

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
        <AmountText className="wallet-balance__amount" value={balance} />
      </span>
    </section>
  )
}
