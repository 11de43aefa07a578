import { describe, expect, it } from 'vitest'
import { HIDDEN_AMOUNT, shownAmount, shownText } from './hide-amount'

describe('shownAmount', () => {
  it('shows every digit the server sent, at least two decimals', () => {
    expect(shownAmount('12.50', false)).toBe('12.50')
    expect(shownAmount('0.158300', false)).toBe('0.1583')
    expect(shownAmount('7', false)).toBe('7.00')
  })

  it('shows the mask, whatever the amount, when amounts are hidden', () => {
    expect(shownAmount('12.50', true)).toBe(HIDDEN_AMOUNT)
    expect(shownAmount('—', true)).toBe('****')
  })

  it('shows text that is not an amount as it came', () => expect(shownAmount('—', false)).toBe('—'))
})

describe('shownText', () => {
  it('masks every amount in free text while amounts are hidden', () => {
    expect(shownText('首充赠送：充值 100.00 USDT 赠送 10.5 USDT', true)).toBe(
      '首充赠送：充值 **** USDT 赠送 **** USDT',
    )
    expect(shownText('提现 1,200 TRX', true)).toBe('提现 **** TRX')
    expect(shownText('USDT → TRX，汇率 6.25', true)).toBe('USDT → TRX，汇率 ****')
  })

  it('keeps what is not an amount: rounds, addresses, plain counts', () => {
    const memo = '快三 第202611251413期 派奖 转账投注入账 TXy3dkq9 3 笔'
    expect(shownText(memo, true)).toBe(memo)
  })

  it('leaves the text alone while amounts are shown', () => {
    expect(shownText('充值 100.00 USDT', false)).toBe('充值 100.00 USDT')
  })
})
