import { describe, expect, it } from 'vitest'
import { isAmountInRange, MAX_AMOUNT_MICRO, parseMicro, toMicro } from './money'

describe('amounts in micro-units', () => {
  it('reads plain decimals exactly, up to the largest safe amount', () => {
    expect(toMicro('12.5')).toBe(12_500_000)
    expect(toMicro('-0.000001')).toBe(-1)
    expect(toMicro('9007199254.740991')).toBe(MAX_AMOUNT_MICRO)
  })

  it('refuses amounts beyond the safe range instead of rounding them', () => {
    expect(parseMicro('9007199254.740992')).toBeNull()
    // 2^53 + 1 micro rounds to a safe-looking 2^53 in floating point; it is still out of range.
    expect(parseMicro('9007199254.740993')).toBeNull()
    expect(isAmountInRange('99999999999999999999')).toBe(false)
    expect(() => toMicro('9007199254.740992')).toThrow(/out of range/)
    expect(() => toMicro('abc')).toThrow(/not an amount/)
  })
})
