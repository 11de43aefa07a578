import { Amount } from '@client/components/amount/amount'

export interface AmountTextProps {
  /** A decimal string as the server or wallet-money.ts wrote it; never a float. */
  value: string
  unit?: string
  /** Ledger amounts: show the sign and colour incoming green, outgoing red. */
  signed?: boolean
  className?: string
}

/** An amount of the player's money in the wallet's look: the shared Amount (hide-amount shows the mask). */
export function AmountText({ value, unit = 'USDT', signed = false, className }: AmountTextProps) {
  return <Amount value={value} unit={unit} signed={signed} block="wallet-amount" className={className} />
}
