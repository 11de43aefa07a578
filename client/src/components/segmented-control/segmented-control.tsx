import 'antd-mobile/es/components/segmented/segmented.css'
import { useId } from 'react'
import './segmented-control.css'

export interface SegmentedOption<T extends string> {
  label: string
  value: T
}

/**
 * One choice among a few, drawn as antd-mobile's block Segmented (its stylesheet and class names)
 * but built as what it is: a named group of real radio buttons, each labelled by its text. Arrow
 * keys move the choice as in any radio group; a tap on the text picks it.
 */
export function SegmentedControl<T extends string>({
  label,
  options,
  value,
  onChange,
}: {
  /** The group's name for assistive technology, e.g. 验证方式. */
  label: string
  options: readonly SegmentedOption<T>[]
  value: T
  onChange: (value: T) => void
}) {
  const name = useId()
  return (
    <div role="radiogroup" aria-label={label} className="adm-segmented adm-segmented-block segmented-control">
      <div className="adm-segmented-group">
        {options.map((option) => {
          const checked = option.value === value
          return (
            <label
              key={option.value}
              className={checked ? 'adm-segmented-item adm-segmented-item-selected' : 'adm-segmented-item'}
            >
              <input
                type="radio"
                className="adm-segmented-item-input"
                name={name}
                value={option.value}
                checked={checked}
                onChange={() => onChange(option.value)}
              />
              <span className="adm-segmented-item-label">{option.label}</span>
            </label>
          )
        })}
      </div>
    </div>
  )
}
