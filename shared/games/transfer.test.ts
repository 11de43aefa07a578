import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { transferSide, unitsDigit } from './transfer'

const usdt = (n: number) => Math.round(n * 1_000_000)

describe('transfer bets: the units digit of the whole amount picks the side', () => {
  it('reads the units digit of the whole part', () => {
    expect(unitsDigit(usdt(15.5))).toBe(5)
    expect(unitsDigit(usdt(120))).toBe(0)
    expect(unitsDigit(usdt(9.999999))).toBe(9)
    expect(unitsDigit(usdt(0.5))).toBe(0)
  })

  it('maps digits to sides per receiving address', () => {
    expect([0, 4, 5, 9].map((d) => transferSide('big_small', usdt(10 + d)))).toEqual([
      'small',
      'small',
      'big',
      'big',
    ])
    expect([1, 2, 7, 10].map((d) => transferSide('odd_even', usdt(d)))).toEqual([
      'odd',
      'even',
      'odd',
      'even',
    ])
    expect([1, 2, 3].map((d) => transferSide('banker_player', usdt(20 + d)))).toEqual([
      'banker',
      'player',
      'tie',
    ])
    for (const d of [0, 4, 5, 6, 7, 8, 9]) expect(transferSide('banker_player', usdt(d + 0.5))).toBeNull()
  })

  it('gives every amount a side for big/small and odd/even', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 ** 12 }), (micro) => {
        const d = unitsDigit(micro)
        expect(transferSide('big_small', micro)).toBe(d >= 5 ? 'big' : 'small')
        expect(transferSide('odd_even', micro)).toBe(d % 2 ? 'odd' : 'even')
      }),
    )
  })
})
