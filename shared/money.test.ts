import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { formatMoney, isAmountInRange, MAX_AMOUNT_MICRO, parseMicro, toMicro } from './money'

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

describe('formatMoney', () => {
  it('keeps the precision an amount has, never fewer than 2 places', () => {
    expect(formatMoney(78_875_000)).toBe('78.875')
    expect(formatMoney(78_800_000)).toBe('78.80')
    expect(formatMoney(3_000_000)).toBe('3.00')
    expect(formatMoney(1)).toBe('0.000001')
    expect(formatMoney(-1_500_000)).toBe('-1.50')
    expect(formatMoney(0)).toBe('0.00')
    // Never rounded up to fewer places.
    expect(formatMoney(12_500_000)).toBe('12.50')
    expect(formatMoney(1_950_617)).toBe('1.950617')
    expect(formatMoney(100_000)).toBe('0.10')
    expect(formatMoney(-3_000_000)).toBe('-3.00')
  })

  it('reads back as the same amount, with no trailing zero past the second place', () => {
    fc.assert(
      fc.property(fc.integer({ min: -MAX_AMOUNT_MICRO, max: MAX_AMOUNT_MICRO }), (micro) => {
        const text = formatMoney(micro)
        expect(toMicro(text)).toBe(micro)
        expect(text).toMatch(/^-?\d+\.\d{2}(\d*[1-9])?$/)
      }),
    )
  })
})
