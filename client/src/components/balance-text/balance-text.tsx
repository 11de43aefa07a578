import { useHideAmount } from '@client/lib/hide-amount'
import { BALANCE_PLACEHOLDER, session, useSession } from '@client/lib/session-store'
import { Amount } from '../amount/amount'
import './balance-text.css'

export interface BalanceTextProps {
  /** null: not known yet, shown as the placeholder (never as 0.00). */
  balance: string | null
  unit?: string
}

/** An amount that respects the hide-amount setting (lib/hide-amount.ts). */
export function BalanceText({ balance, unit = 'USDT' }: BalanceTextProps) {
  if (balance === null) {
    // Not known yet: the placeholder, never 0.00.
    return (
      <span className="balance-text num" data-testid="balance" aria-busy="true">
        <span className="balance-text__value">{BALANCE_PLACEHOLDER}</span>
        {unit ? <span className="balance-text__unit">{unit}</span> : null}
      </span>
    )
  }
  return <Amount value={balance} unit={unit} block="balance-text" testId="balance" />
}

/** The player's TRX balance, beside the USDT one; nothing until a balance answer has brought it. */
export function TrxBalance() {
  const trx = useSession((s) => s.trxBalance)
  if (trx === null) return null
  return (
    <span className="balance-text__trx">
      <Amount value={trx} unit="TRX" testId="trx-balance" />
    </span>
  )
}

/** The eye button next to an amount: hides or shows every amount of the app (the setting is kept). */
export function HideAmountToggle() {
  const hidden = useHideAmount()
  const onChange = (next: boolean) => session.setHideAmount(next)
  return (
    <button
      type="button"
      className="hide-amount-toggle"
      aria-pressed={hidden}
      aria-label={hidden ? '显示金额' : '隐藏金额'}
      onClick={() => onChange(!hidden)}
    >
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
        <path
          d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.8"
          strokeLinejoin="round"
        />
        <circle cx="12" cy="12" r="3" fill="none" stroke="currentColor" strokeWidth="1.8" />
        {hidden ? (
          <path d="M4 4l16 16" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
        ) : null}
      </svg>
    </button>
  )
}
