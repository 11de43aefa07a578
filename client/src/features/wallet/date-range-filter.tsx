import { pickedDate } from '@client/lib/date-time'
import Button from 'antd-mobile/es/components/button'
import CalendarPicker from 'antd-mobile/es/components/calendar-picker'
import Selector from 'antd-mobile/es/components/selector'
import { useState } from 'react'
import { DATE_PRESET_LABEL, DATE_PRESETS, type DatePreset, type DateRange, presetRange } from './wallet-time'

export interface DateFilter {
  preset: DatePreset | 'custom'
  range: DateRange
}

export const ALL_DATES: DateFilter = { preset: 'all', range: {} }

const DAY_MS = 86_400_000
/** How far back the calendar goes. */
const CALENDAR_DAYS = 180

/** The date part of a list's filters: a few presets, or any range on a calendar. */
export function DateRangeFilter({
  value,
  onChange,
}: {
  value: DateFilter
  onChange: (next: DateFilter) => void
}) {
  const [calendarOpen, setCalendarOpen] = useState(false)
  const now = Date.now()
  return (
    <div className="wallet-filter">
      <Selector
        columns={2}
        options={DATE_PRESETS.map((preset) => ({ label: DATE_PRESET_LABEL[preset], value: preset }))}
        value={value.preset === 'custom' ? [] : [value.preset]}
        onChange={(picked) => {
          const preset = picked[0]
          if (preset) onChange({ preset, range: presetRange(preset, Date.now()) })
        }}
      />
      <Button block fill="outline" size="small" onClick={() => setCalendarOpen(true)}>
        {value.preset === 'custom'
          ? `自定义：${value.range.start_date} 至 ${value.range.end_date}`
          : '自定义日期'}
      </Button>
      <CalendarPicker
        visible={calendarOpen}
        selectionMode="range"
        title="选择日期范围"
        min={new Date(now - CALENDAR_DAYS * DAY_MS)}
        max={new Date(now)}
        onClose={() => setCalendarOpen(false)}
        onMaskClick={() => setCalendarOpen(false)}
        onConfirm={(picked) => {
          setCalendarOpen(false)
          if (!picked) return
          onChange({
            preset: 'custom',
            range: { start_date: pickedDate(picked[0]), end_date: pickedDate(picked[1]) },
          })
        }}
      />
    </div>
  )
}
