import { describe, expect, it } from 'vitest'
import { edgePercent, formatDuration, lossPerHundred } from './protection-format'

describe('protection formats', () => {
  it('shows lengths of play in hours and minutes', () => {
    expect(formatDuration(59_999)).toBe('0分钟')
    expect(formatDuration(15 * 60_000)).toBe('15分钟')
    expect(formatDuration(60 * 60_000)).toBe('1小时')
    expect(formatDuration(65 * 60_000)).toBe('1小时5分钟')
  })

  it('states the edge per 100 staked', () => {
    expect(edgePercent(0.025)).toBe('2.50%')
    expect(lossPerHundred(0.0278)).toBe('2.78')
  })
})
