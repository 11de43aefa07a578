import { sanitizeAmountInput } from '@client/lib/amount-input'
import Input from 'antd-mobile/es/components/input'
import './amount-input.css'

export interface AmountInputProps {
  /** What the field holds: only ever what sanitizeAmountInput kept, or a value offered below. */
  value: string
  /** Called with the kept text on every keystroke, and with a quick amount or `all` on a tap. */
  onChange: (value: string) => void
  /** The field's accessible name. */
  label: string
  /** The currency after the field. */
  unit: string
  placeholder?: string
  /** A 全部 button that fills in this amount; null while it is not known (the button is disabled). */
  all?: string | null
  /** Amounts offered as buttons under the field. */
  quick?: readonly string[]
}

/**
 * The one amount field of the app (docs/client.md): a decimal keyboard, digits and one point only,
 * the unit beside it, and optional 全部 and quick amounts. Top-up, withdraw and exchange use it.
 */
export function AmountInput({ value, onChange, label, unit, placeholder, all, quick }: AmountInputProps) {
  return (
    <>
      <div className="amount-input">
        <Input
          inputMode="decimal"
          placeholder={placeholder}
          value={value}
          onChange={(text) => onChange(sanitizeAmountInput(text))}
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
