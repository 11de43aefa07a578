import { describe, expect, it } from 'vitest'
import {
  cstDate,
  cstDateTime,
  edgePercent,
  formatDuration,
  lossPerHundred,
  signedAmount,
} from './protection-format'

describe('protection formats', () => {
  it('shows times in China Standard Time whatever the device zone', () => {
    // 2026-11-22 16:30 UTC is 2026-11-23 00:30 in CST.
    expect(cstDateTime(Date.UTC(2026, 10, 22, 16, 30))).toBe('2026-11-23 00:30')
    expect(cstDate(Date.UTC(2026, 10, 22, 15, 59))).toBe('2026-11-22')
  })

  it('shows lengths of play in hours and minutes', () => {
    expect(formatDuration(59_999)).toBe('0分钟')
    expect(formatDuration(15 * 60_000)).toBe('15分钟')
    expect(formatDuration(60 * 60_000)).toBe('1小时')
    expect(formatDuration(65 * 60_000)).toBe('1小时5分钟')
  })

  it('signs results and states the edge per 100 staked', () => {
    expect(signedAmount('5.00')).toBe('+5.00')
    expect(signedAmount('-3.50')).toBe('-3.50')
    expect(signedAmount('0.00')).toBe('0.00')
    expect(edgePercent(0.025)).toBe('2.50%')
    expect(lossPerHundred(0.0278)).toBe('2.78')
  })
})
