import { describe, expect, it } from 'vitest'
import { formatWait } from './password-guard'

describe('formatWait', () => {
  it('says how long a lock lasts in hours and minutes, rounding up', () => {
    expect(formatWait(3 * 3_600_000)).toBe('3小时')
    expect(formatWait(2 * 3_600_000 + 1)).toBe('2小时1分钟')
    expect(formatWait(1)).toBe('1分钟')
    expect(formatWait(45 * 60_000)).toBe('45分钟')
  })
})
