import Dropdown, { type DropdownRef } from 'antd-mobile/es/components/dropdown'
import Selector from 'antd-mobile/es/components/selector'
import { type ReactNode, useRef } from 'react'
import { type DateFilter, DateRangeFilter } from './date-range-filter'
import { rangeLabel } from './wallet-time'

export interface ChoiceFilter<V extends string> {
  key: string
  /** Shown as the dropdown's title while nothing is picked. */
  title: string
  options: readonly { label: string; value: V }[]
  value: V | null
  onChange: (value: V | null) => void
}

/** A choice whose values are plain strings, so that choices of different kinds sit in one bar. */
export interface Choice {
  key: string
  title: string
  options: readonly { label: string; value: string }[]
  value: string | null
  onChange: (value: string | null) => void
}

export function choice<V extends string>(filter: ChoiceFilter<V>): Choice {
  return {
    key: filter.key,
    title: filter.title,
    options: filter.options,
    value: filter.value,
    onChange: (value) => filter.onChange(filter.options.find((o) => o.value === value)?.value ?? null),
  }
}

/**
 * The filters above a wallet list: one dropdown per choice (status, type, currency; "全部" clears
 * it) and one for the dates.
 */
export function FilterBar({
  choices,
  dates,
  onDates,
}: {
  choices: Choice[]
  dates: DateFilter
  onDates: (next: DateFilter) => void
}) {
  const dropdown = useRef<DropdownRef>(null)
  const close = () => dropdown.current?.close()
  const items: ReactNode[] = choices.map((item) => {
    const picked = item.options.find((o) => o.value === item.value)
    return (
      <Dropdown.Item key={item.key} title={picked?.label ?? item.title} highlight={picked !== undefined}>
        <div className="wallet-filter">
          <Selector
            columns={3}
            options={[{ label: '全部', value: '' }, ...item.options]}
            value={[item.value ?? '']}
            onChange={(values) => {
              const value = values[0]
              item.onChange(value || null)
              close()
            }}
          />
        </div>
      </Dropdown.Item>
    )
  })
  return (
    <Dropdown ref={dropdown} className="wallet-filter-bar">
      {items}
      <Dropdown.Item key="date" title={rangeLabel(dates.range)} highlight={dates.preset !== 'all'}>
        <DateRangeFilter
          value={dates}
          onChange={(next) => {
            onDates(next)
            close()
          }}
        />
      </Dropdown.Item>
    </Dropdown>
  )
}
