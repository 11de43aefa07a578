import { describe, expect, it } from 'vitest'
import { sanitizeAmountInput } from './amount-input'

describe('sanitizeAmountInput', () => {
  it.each([
    ['12.345', '12.345'],
    ['12.3456789', '12.345678'],
    ['1.2.3', '1.23'],
    ['abc12', '12'],
    ['007', '7'],
    ['00.5', '0.5'],
    ['.5', '0.5'],
    ['12。5', '12.5'],
    ['', ''],
  ])('%s → %s', (typed, kept) => expect(sanitizeAmountInput(typed)).toBe(kept))

  it('limits the places when asked', () => expect(sanitizeAmountInput('1.234', 2)).toBe('1.23'))
})
