import { exchangeQuoteMicro } from '@shared/contract/wallet'
import { isTronAddress } from '@shared/tron'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { depositAddressFor } from './deposit-service'
import { orderNo } from './wallet-format'

describe('wallet formatting', () => {
  it('makes order numbers from the CST time', () => {
    expect(orderNo('W', Date.UTC(2030, 0, 9, 16, 30, 5))).toMatch(/^W20300110003005\d{6}$/)
  })
})

describe('exchange quotes', () => {
  it('round down to the micro-unit, with integers only', () => {
    expect(exchangeQuoteMicro(12_345_678, '0.158')).toBe(1_950_617)
    expect(exchangeQuoteMicro(10_000_000, '6.25')).toBe(62_500_000)
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 ** 12 }),
        fc.integer({ min: 1, max: 10 ** 8 }),
        (amount, rateMicro) => {
          const rate = `${Math.floor(rateMicro / 1_000_000)}.${String(rateMicro % 1_000_000).padStart(6, '0')}`
          const q = exchangeQuoteMicro(amount, rate)
          expect(BigInt(q) * 1_000_000n).toBeLessThanOrEqual(BigInt(amount) * BigInt(rateMicro))
          expect((BigInt(q) + 1n) * 1_000_000n).toBeGreaterThan(BigInt(amount) * BigInt(rateMicro))
        },
      ),
    )
  })
})

describe('deposit addresses', () => {
  it('are valid TRON addresses, distinct per player and per attempt, and stable', () => {
    const seen = new Set<string>()
    for (let id = 1; id <= 500; id++) {
      for (const attempt of [0, 1]) {
        const a = depositAddressFor(id, attempt)
        expect(isTronAddress(a)).toBe(true)
        expect(seen.has(a)).toBe(false)
        seen.add(a)
      }
    }
    expect(depositAddressFor(7)).toBe(depositAddressFor(7))
  })
})
