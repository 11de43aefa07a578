import { formatBalance } from '../../lib/format'
import './balance-text.css'

/** What a hidden amount shows instead of the figure. */
export const HIDDEN_AMOUNT = '****'

export interface BalanceTextProps {
  balance: string
  hidden: boolean
  unit?: string
}

/** An amount that respects the hide-amount setting. */
export function BalanceText({ balance, hidden, unit = 'USDT' }: BalanceTextProps) {
  return (
    <span className="balance-text" data-testid="balance">
      <span className="balance-text__value">{hidden ? HIDDEN_AMOUNT : formatBalance(balance)}</span>
      {unit ? <span className="balance-text__unit">{unit}</span> : null}
    </span>
  )
}

export interface HideAmountToggleProps {
  hidden: boolean
  onChange: (hidden: boolean) => void
}

/** The eye button next to an amount. */
export function HideAmountToggle({ hidden, onChange }: HideAmountToggleProps) {
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
