import { formatMoney, toMicro } from '@shared/money'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { exchangeAllAmount, exchangeQuote, parseAmount, withdrawQuote } from './wallet-money'

const RULES = {
  min_amount: '10',
  max_amount: '50000',
  fee: '1',
  balance: '100.00',
  remaining_today: '100000',
  max_withdrawable: '99.00',
}

describe('parseAmount', () => {
  it('reads complete amounts as micro-units', () => {
    expect(parseAmount('12')).toBe(12_000_000)
    expect(parseAmount('12.')).toBe(12_000_000)
    expect(parseAmount('0.000001')).toBe(1)
    expect(parseAmount('0.1')).toBe(100_000)
  })
  it('refuses what is not an amount yet', () => {
    for (const text of ['', '.', '1.1234567', '-1', '01', 'abc']) expect(parseAmount(text)).toBeNull()
  })
})

describe('formatMoney', () => {
  it('writes 2 to 6 places', () => {
    expect(formatMoney(12_000_000)).toBe('12.00')
    expect(formatMoney(12_500_000)).toBe('12.50')
    expect(formatMoney(158_333)).toBe('0.158333')
    expect(formatMoney(-3_000_000)).toBe('-3.00')
  })
  it('round-trips every amount exactly (no float anywhere)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999_999_999_999 }), (micro) => {
        expect(toMicro(formatMoney(micro))).toBe(micro)
      }),
    )
  })
})

describe('withdrawQuote', () => {
  it('adds the fee on top: the amount arrives, amount + fee leaves the balance', () => {
    expect(withdrawQuote('50', RULES)).toEqual({
      arrive: '50.00',
      fee: '1.00',
      total: '51.00',
      problem: null,
    })
    expect(withdrawQuote('0.1', { ...RULES, min_amount: '0.1', fee: '0.2' })).toEqual({
      arrive: '0.10',
      fee: '0.20',
      total: '0.30',
      problem: null,
    })
  })
  it('is exact where floats are not (0.1 + 0.2)', () => {
    const quote = withdrawQuote('10.1', { ...RULES, fee: '0.2' })
    expect(quote?.total).toBe('10.30')
  })
  it('says what stands in the way', () => {
    expect(withdrawQuote('5', RULES)?.problem).toBe('单笔最低提现 10 USDT')
    expect(withdrawQuote('99.5', RULES)?.problem).toMatch(/^余额不足/)
    expect(withdrawQuote('99', RULES)?.problem).toBeNull()
    expect(withdrawQuote('60000', { ...RULES, balance: '100000.00' })?.problem).toBe(
      '单笔最高提现 50000 USDT',
    )
    expect(withdrawQuote('60', { ...RULES, remaining_today: '50.00' })?.problem).toBe(
      '超出今日剩余额度 50.00 USDT',
    )
    expect(withdrawQuote('0', RULES)?.problem).toBe('金额必须大于0')
  })
  it('gives nothing for an incomplete amount', () => expect(withdrawQuote('', RULES)).toBeNull())
})

describe('exchangeQuote', () => {
  const usdtToTrx = { from: 'USDT', to: 'TRX', rate: '6.25', min_amount: '1', max_amount: '10000' } as const
  const trxToUsdt = {
    from: 'TRX',
    to: 'USDT',
    rate: '0.158',
    min_amount: '10',
    max_amount: '100000',
  } as const

  it('quotes at the pair rate, rounded down to 6 places', () => {
    expect(exchangeQuote('100', usdtToTrx, '1000.00')).toEqual({ received: '625.00', problem: null })
    expect(exchangeQuote('10.000001', trxToUsdt, '500.00')?.received).toBe('1.58')
    expect(exchangeQuote('10.000007', trxToUsdt, '500.00')?.received).toBe('1.580001')
  })
  it('checks the limits and the balance', () => {
    expect(exchangeQuote('0.5', usdtToTrx, '1000.00')?.problem).toBe('单笔最少兑换 1 USDT')
    expect(exchangeQuote('20000', usdtToTrx, '100000.00')?.problem).toBe('单笔最多兑换 10000 USDT')
    expect(exchangeQuote('20', trxToUsdt, '10.00')?.problem).toBe('TRX 余额不足')
  })
  it('"all" is the balance capped by the pair maximum', () => {
    expect(exchangeAllAmount(usdtToTrx, '1000.50')).toBe('1000.50')
    expect(exchangeAllAmount(usdtToTrx, '20000.00')).toBe('10000.00')
  })
})
