import { sanitizeAmountInput } from '@client/lib/amount-input'
import Input from 'antd-mobile/es/components/input'
import './amount-input.css'

export interface AmountInputProps {
  /**
   * What the field holds: only ever what sanitizeAmountInput kept, or a value offered below. Inside
   * an antd-mobile `Form.Item`, the form passes `value` and `onChange`.
   */
  value?: string
  /** Called with the kept text on every keystroke, and with a quick amount or `all` on a tap. */
  onChange?: (value: string) => void
  /** The field's accessible name. */
  label: string
  /** The currency after the field. */
  unit: string
  placeholder?: string
  /** A 全部 button that fills in this amount; null while it is not known (the button is disabled). */
  all?: string | null
  /** Amounts offered as buttons under the field. */
  quick?: readonly string[]
  /** Decimal places the field keeps (6, the ledger's, unless the amount takes fewer: a stake takes 2). */
  places?: number
}

/**
 * The one amount field of the app (docs/client.md#amounts): a decimal keyboard, digits and one point
 * only, the unit beside it, and optional 全部 and quick amounts. Every field where a player types an
 * amount of money uses it: top-up, withdraw, exchange, the withdrawal during a time-out, a
 * protection limit, the stake on the bet board and the test transfer bet.
 */
export function AmountInput({
  value = '',
  onChange = () => {},
  label,
  unit,
  placeholder,
  all,
  quick,
  places,
}: AmountInputProps) {
  return (
    <>
      <div className="amount-input">
        <Input
          inputMode="decimal"
          placeholder={placeholder}
          value={value}
          onChange={(text) => onChange(sanitizeAmountInput(text, places))}
          aria-label={label}
        />
        <span className="amount-input__unit">{unit}</span>
        {all !== undefined ? (
          <button
            type="button"
            className="text-button"
            disabled={all === null}
            onClick={() => {
              if (all !== null) onChange(all)
            }}
          >
            全部
          </button>
        ) : null}
      </div>
      {quick ? (
        <div className="amount-input__quick">
          {quick.map((amount) => (
            <button
              key={amount}
              type="button"
              className={`amount-input__quick-item${value === amount ? ' amount-input__quick-item--on' : ''}`}
              onClick={() => onChange(amount)}
            >
              {amount}
            </button>
          ))}
        </div>
      ) : null}
    </>
  )
}
