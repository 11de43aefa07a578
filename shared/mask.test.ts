import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { mask, maskName, maskPhone } from './mask'

describe('mask', () => {
  it('replaces the middle with three asterisks by default', () => {
    expect(mask('13812345678', { keepHead: 3, keepTail: 4 })).toBe('138***5678')
  })

  it('takes another number of stars', () => {
    expect(mask('13812345678', { keepHead: 3, keepTail: 4, stars: 5 })).toBe('138*****5678')
  })

  it('does not reveal how long the hidden part is', () => {
    expect(mask('1234567890123456', { keepHead: 2, keepTail: 2 })).toBe('12***56')
    expect(mask('12345', { keepHead: 2, keepTail: 2 })).toBe('12***45')
  })

  it('shows only the stars when there is no middle to hide', () => {
    expect(mask('1234', { keepHead: 2, keepTail: 2 })).toBe('***')
    expect(mask('12', { keepHead: 3, keepTail: 4 })).toBe('***')
  })

  it('keeps an empty string empty', () => {
    expect(mask('', { keepHead: 1, keepTail: 1 })).toBe('')
  })

  it('never shows the whole of a non-empty value', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.nat(10), fc.nat(10), (text, keepHead, keepTail) => {
        const out = mask(text, { keepHead, keepTail })
        expect(out).toContain('***')
        expect(out).not.toBe(text)
      }),
    )
  })
})

describe('maskPhone', () => {
  it('keeps the first three and the last four digits', () => {
    expect(maskPhone('13812345678')).toBe('138***5678')
    expect(maskPhone(' 13700007000 ')).toBe('137***7000')
  })

  it('shows only the stars for a number too short to have a middle', () => {
    expect(maskPhone('1380013')).toBe('***')
  })
})

describe('maskName', () => {
  it('keeps the first and last character of a name or an id', () => {
    expect(maskName('好运来')).toBe('好***来')
    expect(maskName('100234')).toBe('1***4')
    expect(maskName('🐉龙🐉')).toBe('🐉***🐉')
  })

  it('keeps only the first of two characters, and none of one', () => {
    expect(maskName('阿明')).toBe('阿***')
    expect(maskName('42')).toBe('4***')
    expect(maskName('7')).toBe('***')
    expect(maskName('  ')).toBe('***')
  })
})
