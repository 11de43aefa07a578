import { describe, expect, it } from 'vitest'
import { addCstMonths, cstDate, cstMinute, periodRange } from './periods'
import { exclusionEnd } from './protection-service'

// 2026-11-22 is a Sunday; 12:00 CST is 04:00 UTC.
const SUNDAY_NOON = Date.UTC(2026, 10, 22, 4)
const cst = (y: number, m: number, d: number, h = 0) => Date.UTC(y, m - 1, d, h) - 8 * 3_600_000

describe('business periods (China Standard Time)', () => {
  it('a day runs from 00:00 CST to the next 00:00 CST', () => {
    expect(periodRange('day', SUNDAY_NOON)).toEqual({ start: cst(2026, 11, 22), end: cst(2026, 11, 23) })
    // 23:59 UTC on the 22nd is already the 23rd in CST.
    expect(periodRange('day', Date.UTC(2026, 10, 22, 23, 59)).start).toBe(cst(2026, 11, 23))
    expect(periodRange('day', cst(2026, 11, 23) - 1).end).toBe(cst(2026, 11, 23))
  })

  it('a week starts on Monday 00:00 CST; Sunday is its last day', () => {
    expect(periodRange('week', SUNDAY_NOON)).toEqual({ start: cst(2026, 11, 16), end: cst(2026, 11, 23) })
    expect(periodRange('week', cst(2026, 11, 23))).toEqual({
      start: cst(2026, 11, 23),
      end: cst(2026, 11, 30),
    })
  })

  it('a month is the CST calendar month, across the year end', () => {
    expect(periodRange('month', SUNDAY_NOON)).toEqual({ start: cst(2026, 11, 1), end: cst(2026, 12, 1) })
    expect(periodRange('month', cst(2026, 12, 31, 23))).toEqual({
      start: cst(2026, 12, 1),
      end: cst(2027, 1, 1),
    })
  })

  it('adds calendar months, keeping the wall time and clamping to the month end', () => {
    expect(addCstMonths(SUNDAY_NOON, 6)).toBe(cst(2027, 5, 22, 12))
    expect(addCstMonths(cst(2026, 8, 31, 9), 6)).toBe(cst(2027, 2, 28, 9))
    expect(addCstMonths(cst(2027, 8, 31, 9), 6)).toBe(cst(2028, 2, 29, 9))
    expect(addCstMonths(SUNDAY_NOON, 60)).toBe(cst(2031, 11, 22, 12))
  })

  it('formats dates and minutes in CST', () => {
    expect(cstDate(cst(2026, 11, 23) - 1)).toBe('2026-11-22')
    expect(cstMinute(SUNDAY_NOON)).toBe('2026-11-22 12:00')
  })
})

describe('exclusion lengths', () => {
  it('time-outs run in hours, self-exclusions in CST calendar months', () => {
    const HOUR = 3_600_000
    expect(exclusionEnd('24h', SUNDAY_NOON)).toBe(SUNDAY_NOON + 24 * HOUR)
    expect(exclusionEnd('7d', SUNDAY_NOON)).toBe(SUNDAY_NOON + 7 * 24 * HOUR)
    expect(exclusionEnd('30d', SUNDAY_NOON)).toBe(SUNDAY_NOON + 30 * 24 * HOUR)
    expect(exclusionEnd('6w', SUNDAY_NOON)).toBe(SUNDAY_NOON + 42 * 24 * HOUR)
    expect(exclusionEnd('6m', SUNDAY_NOON)).toBe(cst(2027, 5, 22, 12))
    expect(exclusionEnd('1y', SUNDAY_NOON)).toBe(cst(2027, 11, 22, 12))
    expect(exclusionEnd('5y', SUNDAY_NOON)).toBe(cst(2031, 11, 22, 12))
  })
})
