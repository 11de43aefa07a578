import { toMicro } from '@shared/money'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  applyRate,
  checkTiers,
  commissionFor,
  formatRate,
  type RebateTier,
  rebateFor,
  tierOf,
} from './rebate'

const u = toMicro
/** The tiers of fixtures/agent.json. */
const TIERS: RebateTier[] = [
  { minTurnoverMicro: u('100'), rateBp: 30 },
  { minTurnoverMicro: u('1000'), rateBp: 50 },
  { minTurnoverMicro: u('10000'), rateBp: 80 },
  { minTurnoverMicro: u('50000'), rateBp: 100 },
  { minTurnoverMicro: u('200000'), rateBp: 120 },
]

describe('rebate across tiers', () => {
  it.each([
    ['0', 0, 0, '0'],
    ['99.99', 0, 0, '0'],
    ['100', 1, 30, '0.30'],
    ['999.99', 1, 30, '2.99'],
    ['1000', 2, 50, '5.00'],
    ['9999', 2, 50, '49.99'],
    ['10000', 3, 80, '80.00'],
    ['50000', 4, 100, '500.00'],
    ['199999.99', 4, 100, '1999.99'],
    ['200000', 5, 120, '2400.00'],
    ['1000000', 5, 120, '12000.00'],
  ])('turnover %s → tier %i at %i bp = %s', (turnover, tier, rateBp, amount) => {
    expect(rebateFor(u(turnover), TIERS)).toEqual({ tier, rateBp, amountMicro: u(amount) })
  })

  it('the reached tier sets the rate of the whole day, cut down to the cent', () => {
    // 1234.567891 × 0.50% = 6.172839… → 6.17
    expect(rebateFor(u('1234.567891'), TIERS).amountMicro).toBe(u('6.17'))
    expect(applyRate(u('0.01'), 30)).toBe(0)
  })

  it('never pays less for more turnover, and never more than the top rate', () => {
    const turnover = fc.integer({ min: 0, max: 10 ** 15 })
    fc.assert(
      fc.property(turnover, turnover, (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a]
        expect(rebateFor(lo, TIERS).amountMicro).toBeLessThanOrEqual(rebateFor(hi, TIERS).amountMicro)
        expect(rebateFor(hi, TIERS).amountMicro).toBeLessThanOrEqual((hi * 120) / 10_000)
        expect(rebateFor(hi, TIERS).amountMicro % 10_000).toBe(0)
      }),
    )
  })

  it('is exact beyond float precision', () => {
    expect(applyRate(9_007_199_254_740_991, 120)).toBe(108_086_391_050_000)
    expect(() => applyRate(-1, 30)).toThrow(RangeError)
    expect(() => applyRate(1.5, 30)).toThrow(RangeError)
    expect(() => applyRate(1, 10_001)).toThrow(RangeError)
  })

  it('finds the tier by inclusive minimums', () => {
    expect(tierOf(u('99.999999'), TIERS)).toBe(0)
    expect(tierOf(u('100'), TIERS)).toBe(1)
    expect(tierOf(u('200000'), TIERS)).toBe(5)
  })

  it('refuses tiers whose rates fall or whose minimums do not rise', () => {
    expect(checkTiers(TIERS)).toBeNull()
    expect(checkTiers([TIERS[0], { minTurnoverMicro: u('50'), rateBp: 40 }] as RebateTier[])).toMatch(
      /start above/,
    )
    expect(checkTiers([TIERS[1], { minTurnoverMicro: u('5000'), rateBp: 10 }] as RebateTier[])).toMatch(
      /less/,
    )
  })
})

describe('commission by level', () => {
  it('applies each level its own rate and ignores levels without one', () => {
    const byLevel = new Map([
      [1, u('2000')],
      [2, u('500')],
      [3, u('300')],
      [4, u('100')],
    ])
    // 2000 × 0.30% + 500 × 0.15% + 300 × 0.05% = 6 + 0.75 + 0.15
    expect(commissionFor(byLevel, [30, 15, 5])).toBe(u('6.90'))
    expect(commissionFor(new Map(), [30, 15, 5])).toBe(0)
  })

  it('formats basis points as a percentage', () => {
    expect(formatRate(30)).toBe('0.30%')
    expect(formatRate(5)).toBe('0.05%')
    expect(formatRate(120)).toBe('1.20%')
    expect(formatRate(10_000)).toBe('100.00%')
  })
})
