import { cstDate } from '@client/lib/date-time'

/**
 * Date filters of the wallet pages. The server counts days in China Standard Time (UTC+8), the
 * zone every time is shown in (lib/date-time.ts).
 */

const DAY_MS = 86_400_000

export const DATE_PRESETS = ['all', 'today', '7d', '30d'] as const
export type DatePreset = (typeof DATE_PRESETS)[number]

export const DATE_PRESET_LABEL: Record<DatePreset, string> = {
  all: '全部时间',
  today: '今天',
  '7d': '近7天',
  '30d': '近30天',
}

export interface DateRange {
  start_date?: string
  end_date?: string
}

/** The dates a preset stands for at `now`, both ends included. */
export function presetRange(preset: DatePreset, now: number): DateRange {
  const days = { all: 0, today: 1, '7d': 7, '30d': 30 }[preset]
  if (days === 0) return {}
  return { start_date: cstDate(now - (days - 1) * DAY_MS), end_date: cstDate(now) }
}

/** A short description of a range for a filter's title. */
export function rangeLabel(range: DateRange): string {
  const { start_date: start, end_date: end } = range
  if (!start && !end) return DATE_PRESET_LABEL.all
  if (start === end) return start?.slice(5) ?? ''
  return `${start?.slice(5) ?? '…'} 至 ${end?.slice(5) ?? '…'}`
}
