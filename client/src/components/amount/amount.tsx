import { signedAmount } from '@client/lib/format'
import { shownAmount, useHideAmount } from '@client/lib/hide-amount'
import './amount.css'

export interface AmountProps {
  /** A decimal string as the server sent it (or as the page computed it as a string); never a float. */
  value: string
  /** The unit after the figure; `''` for none. */
  unit?: string
  /**
   * Ledger amounts: the sign shown (lib/format.ts `signedAmount`, none for zero), incoming in the
   * accent colour, outgoing in the danger colour.
   */
  signed?: boolean
  /**
   * Shown even while amounts are hidden. Only for what the player is asked to confirm: the stake and
   * the possible win on the bet confirmation sheet (docs/client.md#amounts).
   */
  reveal?: boolean
  /** The block's class name (default `amount`): `__value`, `__unit`, `--in` and `--out` follow it. */
  block?: string
  className?: string
  testId?: string
}

/**
 * Every amount of the player's money goes through this component (docs/client.md#amounts): the
 * figure as formatBalance writes it, or the mask while the hide-amount setting is on; it never
 * breaks across lines (the `num` class of styles/global.css).
 */
export function Amount({
  value,
  unit = 'USDT',
  signed = false,
  reveal = false,
  block = 'amount',
  className,
  testId,
}: AmountProps) {
  const hidden = useHideAmount() && !reveal
  // A signed amount is lib/format.ts `signedAmount`: zero has no sign, and no colour either.
  const withSign = signed ? signedAmount(value) : ''
  const text = signed && !hidden ? withSign : shownAmount(value, hidden)
  const tone = withSign.startsWith('-') ? ` ${block}--out` : withSign.startsWith('+') ? ` ${block}--in` : ''
  return (
    <span
      className={`${block} num${tone}${className ? ` ${className}` : ''}`}
      data-testid={testId}
      data-amount={hidden ? 'hidden' : 'shown'}
    >
      <span className={`${block}__value`}>{text}</span>
      {unit ? <span className={`${block}__unit`}>{unit}</span> : null}
    </span>
  )
}
