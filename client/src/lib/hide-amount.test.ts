import { describe, expect, it } from 'vitest'
import { HIDDEN_AMOUNT, shownAmount } from './hide-amount'

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
