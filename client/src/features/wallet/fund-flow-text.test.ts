import { describe, expect, it } from 'vitest'
import { refText } from './fund-flow-text'

describe('refText', () => {
  it('says what an internal reference is, in Chinese, never the raw key', () => {
    expect(refText('bet:41')).toBe('注单号 41')
    expect(refText('transfer:7')).toBe('转账投注 7')
    expect(refText('rebate_claim:3')).toBe('领取记录 3')
    expect(refText('round:kuaisan:202611251413')).toBeNull()
    expect(refText('some_new_kind:1')).toBeNull()
  })

  it('shows an order number as one, and nothing without a reference', () => {
    expect(refText('D20261122153045123456')).toBe('单号 D20261122153045123456')
    expect(refText(null)).toBeNull()
    expect(refText('')).toBeNull()
  })
})
