import { describe, expect, it } from 'vitest'
import { presetRange, rangeLabel } from './wallet-time'

// 2026-11-22 23:30:00 in China Standard Time.
const LATE_EVENING_CST = Date.UTC(2026, 10, 22, 15, 30, 0)

describe('wallet times', () => {
  it('turns presets into inclusive CST date ranges', () => {
    expect(presetRange('all', LATE_EVENING_CST)).toEqual({})
    expect(presetRange('today', LATE_EVENING_CST)).toEqual({
      start_date: '2026-11-22',
      end_date: '2026-11-22',
    })
    expect(presetRange('7d', LATE_EVENING_CST)).toEqual({ start_date: '2026-11-16', end_date: '2026-11-22' })
    expect(presetRange('30d', LATE_EVENING_CST).start_date).toBe('2026-10-24')
  })

  it('labels ranges briefly', () => {
    expect(rangeLabel({})).toBe('全部时间')
    expect(rangeLabel({ start_date: '2026-11-22', end_date: '2026-11-22' })).toBe('11-22')
    expect(rangeLabel({ start_date: '2026-11-16', end_date: '2026-11-22' })).toBe('11-16 至 11-22')
  })
})
