import { describe, expect, it } from 'vitest'
import {
  addDays,
  dateRange,
  dayOf,
  dayRange,
  dayStartOf,
  daysBetween,
  formatCst,
  isDay,
  startOfDay,
} from './business-day'

describe('business days (China Standard Time)', () => {
  it('names the day of an instant in UTC+8, whatever the process time zone', () => {
    // 2026-03-09 16:00 UTC is midnight of 2026-03-10 in China.
    expect(dayOf(Date.UTC(2026, 2, 9, 15, 59, 59))).toBe('2026-03-09')
    expect(dayOf(Date.UTC(2026, 2, 9, 16, 0, 0))).toBe('2026-03-10')
    const { start, end } = dayRange('2026-03-10')
    expect(start).toBe(Date.UTC(2026, 2, 9, 16))
    expect(end - start).toBe(86_400_000)
    expect(dayOf(end - 1)).toBe('2026-03-10')
    expect(dayOf(end)).toBe('2026-03-11')
    expect(startOfDay('2026-01-01')).toBe(Date.UTC(2025, 11, 31, 16))
    expect(dayStartOf(Date.UTC(2030, 0, 9, 16, 30))).toBe(Date.UTC(2030, 0, 9, 16))
    expect(dayStartOf(Date.UTC(2030, 0, 9, 15, 59))).toBe(Date.UTC(2030, 0, 8, 16))
  })

  it('writes an instant as CST text to the day, the minute or the second', () => {
    // 2026-11-22 23:30:05 UTC is 2026-11-23 07:30:05 in China; 15:59:59 UTC is still the 22nd there.
    const at = Date.UTC(2026, 10, 22, 23, 30, 5)
    expect(formatCst(at)).toBe('2026-11-23 07:30:05')
    expect(formatCst(at, 'minute')).toBe('2026-11-23 07:30')
    expect(formatCst(at, 'day')).toBe('2026-11-23')
    expect(formatCst(at, 'second', '\u00a0')).toBe('2026-11-23\u00a007:30:05')
    expect(formatCst(Date.UTC(2026, 11, 31, 15, 59, 59))).toBe('2026-12-31 23:59:59')
    expect(formatCst(Date.UTC(2026, 11, 31, 16, 0, 0))).toBe('2027-01-01 00:00:00')
    expect(formatCst(Date.UTC(2026, 0, 4, 1, 2, 3))).toBe('2026-01-04 09:02:03')
    expect(dayOf(Date.UTC(2026, 11, 31, 16))).toBe(formatCst(Date.UTC(2026, 11, 31, 16), 'day'))
  })

  it('adds days across months and years', () => {
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01')
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29')
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31')
    expect(addDays('2026-03-10', -6)).toBe('2026-03-04')
  })

  it('lists a range newest first, and nothing when it is backwards', () => {
    expect(daysBetween('2026-03-08', '2026-03-10')).toEqual(['2026-03-10', '2026-03-09', '2026-03-08'])
    expect(daysBetween('2026-03-11', '2026-03-10')).toEqual([])
  })

  it('knows real calendar days', () => {
    expect(isDay('2026-02-28')).toBe(true)
    expect(isDay('2028-02-29')).toBe(true)
    expect(isDay('2026-02-30')).toBe(false)
    expect(isDay('2026-13-01')).toBe(false)
    expect(isDay('26-01-01')).toBe(false)
  })

  it('turns inclusive days into a half-open range', () => {
    expect(dateRange('2030-01-10', '2030-01-10')).toEqual({
      from: Date.UTC(2030, 0, 9, 16),
      to: Date.UTC(2030, 0, 10, 16),
    })
    expect(dateRange()).toEqual({ from: null, to: null })
  })
})
