import { describe, expect, it } from 'vitest'
import {
  cstDate,
  formatDateMinute,
  formatDateTime,
  formatShortTime,
  parsePickedDate,
  pickedDate,
  TIME_ZONE_NOTE,
} from './date-time'

// 2026-11-22 23:30:05 in China Standard Time, 15:30:05 UTC.
const LATE_EVENING_CST = Date.UTC(2026, 10, 22, 15, 30, 5)

describe('date-time', () => {
  it('shows every time in China Standard Time, whatever the device zone', () => {
    expect(formatDateTime(LATE_EVENING_CST)).toBe('2026-11-22\u00a023:30:05')
    expect(formatDateMinute(LATE_EVENING_CST)).toBe('2026-11-22\u00a023:30')
    expect(formatShortTime(LATE_EVENING_CST)).toBe('11-22\u00a023:30')
    // Half an hour later it is already the next day in CST, still the 22nd in UTC.
    expect(cstDate(LATE_EVENING_CST + 30 * 60_000)).toBe('2026-11-23')
    expect(formatDateTime(LATE_EVENING_CST + 30 * 60_000)).toBe('2026-11-23\u00a000:00:05')
  })

  it('writes a picked day as YYYY-MM-DD and reads it back', () => {
    expect(pickedDate(new Date(2026, 0, 5))).toBe('2026-01-05')
    expect(parsePickedDate('2026-11-22')?.getDate()).toBe(22)
    expect(parsePickedDate('2026-02-30')).toBeNull()
    expect(parsePickedDate('22/11/2026')).toBeNull()
  })

  it('names the zone for the page', () => {
    expect(TIME_ZONE_NOTE).toBe('时间均为北京时间（UTC+8）')
  })
})
