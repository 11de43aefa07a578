import { shownAmount, useHideAmount } from '@client/lib/hide-amount'
import { isNegative, signedAmount } from './wallet-money'

export interface AmountTextProps {
  /** A decimal string as the server or wallet-money.ts wrote it; never a float. */
  value: string
  unit?: string
  /** Ledger amounts: show the sign and colour incoming green, outgoing red. */
  signed?: boolean
  className?: string
}

/** An amount of the player's money; the hide-amount setting shows **** instead. */
export function AmountText({ value, unit = 'USDT', signed = false, className }: AmountTextProps) {
  const hidden = useHideAmount()
  const text = shownAmount(value, hidden)
  const tone = signed ? (isNegative(value) ? ' wallet-amount--out' : ' wallet-amount--in') : ''
  return (
    <span className={`wallet-amount${tone}${className ? ` ${className}` : ''}`}>
      <span className="wallet-amount__value">{signed && !hidden ? signedAmount(text) : text}</span>
      {unit ? <span className="wallet-amount__unit">{unit}</span> : null}
    </span>
  )
}
