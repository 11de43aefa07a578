import { AWARD_HIGHLIGHT } from '@shared/constants'
import { formatMicro, toMicro } from '@shared/money'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { awardParts, formatBalance, signedAmount, truncate } from './format'

const HASH = '0000000005f5e100ff04c02e43c69f29cd97bdd469a12b0d171a09b933ec36e5'

describe('truncate', () => {
  it('keeps the first N and last M characters around "..."', () => {
    expect(truncate('TXYZabcdefghijklmnopq1234', 4, 4)).toBe('TXYZ...1234')
    expect(truncate(HASH, 6, 6)).toBe('000000...ec36e5')
  })

  it('leaves text unchanged when cutting would not shorten it', () => {
    expect(truncate('', 3, 3)).toBe('')
    expect(truncate('abcdef', 3, 3)).toBe('abcdef')
    expect(truncate('abcdefghi', 3, 3)).toBe('abcdefghi')
    expect(truncate('abcdefghij', 3, 3)).toBe('abc...hij')
  })

  it('allows an empty head or tail', () => {
    expect(truncate('abcdefghij', 0, 2)).toBe('...ij')
    expect(truncate('abcdefghij', 2, 0)).toBe('ab...')
  })

  it('never splits a surrogate pair', () => {
    expect(truncate('😀😀😀😀😀😀😀😀😀😀', 1, 1)).toBe('😀...😀')
  })

  it('treats negative or fractional counts as whole non-negative numbers', () => {
    expect(truncate('abcdefghij', -1, 2.9)).toBe('...ij')
  })

  it('is never longer than its input, and keeps the ends', () => {
    fc.assert(
      fc.property(fc.string(), fc.nat(20), fc.nat(20), (text, head, tail) => {
        const out = truncate(text, head, tail)
        expect(out.length).toBeLessThanOrEqual(text.length)
        if (out !== text) {
          expect(out).toBe(`${text.slice(0, head)}...${tail === 0 ? '' : text.slice(-tail)}`)
        }
      }),
    )
  })
})

describe('awardParts', () => {
  it('shortens a 64-character block hash to 34 characters with a leading 00...', () => {
    const { lead, highlight } = awardParts(HASH)
    expect(highlight).toBe('6e5')
    expect(lead).toBe('00...7bdd469a12b0d171a09b933ec3')
    expect(`${lead}${highlight}`).toHaveLength(AWARD_HIGHLIGHT.maxLength)
    expect(`${lead}${highlight}`).toBe(`00...${HASH.slice(-29)}`)
  })

  it('shows a string of at most 34 characters whole', () => {
    const short = HASH.slice(-34)
    expect(awardParts(short)).toEqual({ lead: short.slice(0, -3), highlight: short.slice(-3) })
    expect(awardParts('abc123')).toEqual({ lead: 'abc', highlight: '123' })
  })

  it('highlights everything when there are 3 characters or fewer', () => {
    expect(awardParts('ab')).toEqual({ lead: '', highlight: 'ab' })
    expect(awardParts('')).toEqual({ lead: '', highlight: '' })
  })

  it('always ends in the original last 3 characters and never exceeds 34', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9a-f]{0,80}$/), (hash) => {
        const { lead, highlight } = awardParts(hash)
        expect(highlight).toBe(hash.slice(-3))
        const shown = `${lead}${highlight}`
        expect(shown.length).toBeLessThanOrEqual(AWARD_HIGHLIGHT.maxLength)
        expect(shown.startsWith('00...')).toBe(hash.length > AWARD_HIGHLIGHT.maxLength)
      }),
    )
  })
})

describe('formatBalance', () => {
  it('keeps every decimal the amount has and pads to at least 2', () => {
    expect(formatBalance('78.875')).toBe('78.875')
    expect(formatBalance('78.8')).toBe('78.80')
    expect(formatBalance('78.870000')).toBe('78.87')
    expect(formatBalance('0.000001')).toBe('0.000001')
    expect(formatBalance('12')).toBe('12.00')
    expect(formatBalance('0')).toBe('0.00')
    expect(formatBalance('-3.5')).toBe('-3.50')
    expect(formatBalance(' 1.230 ')).toBe('1.23')
  })

  it('shows text that is not an amount as it came', () => {
    expect(formatBalance('—')).toBe('—')
    expect(formatBalance('')).toBe('')
  })

  it('never changes the value, only its trailing zeros', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (micro) => {
        const text = formatMicro(micro, 6)
        const shown = formatBalance(text)
        expect(toMicro(shown)).toBe(micro)
        expect(shown).toMatch(/^-?\d+\.\d{2,6}$/)
        expect(shown.length === 0 || !/\.\d{3,}0$/.test(shown)).toBe(true)
      }),
    )
  })
})

describe('signedAmount', () => {
  it('writes the sign of money coming in and going out', () => {
    expect(signedAmount('12')).toBe('+12.00')
    expect(signedAmount('5.5')).toBe('+5.50')
    expect(signedAmount('-3.5')).toBe('-3.50')
    expect(signedAmount('78.875')).toBe('+78.875')
  })

  it('writes zero without a sign, however it came', () => {
    expect(signedAmount('0')).toBe('0.00')
    expect(signedAmount('0.00')).toBe('0.00')
    expect(signedAmount('-0.00')).toBe('0.00')
    expect(signedAmount('+0')).toBe('0.00')
  })

  it('keeps a sign that is already there once, and text that is not an amount as it came', () => {
    expect(signedAmount('+5.00')).toBe('+5.00')
    expect(signedAmount(' -1.00 ')).toBe('-1.00')
    expect(signedAmount('—')).toBe('—')
    expect(signedAmount('+-5')).toBe('+-5')
  })

  it('never changes the value: the signed text reads back as the same amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (micro) => {
        const shown = signedAmount(formatMicro(micro, 6))
        expect(toMicro(shown.replace(/^\+/, ''))).toBe(micro)
        expect(shown.startsWith('+')).toBe(micro > 0)
        expect(shown.startsWith('-')).toBe(micro < 0)
      }),
    )
  })
})
