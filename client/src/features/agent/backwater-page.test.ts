import { describe, expect, it } from 'vitest'
import { canClaim, tierBand } from './backwater-page'

describe('backwater helpers', () => {
  it('offers the claim only when something is left and today is not claimed', () => {
    expect(canClaim('0.000000', false)).toBe(false)
    expect(canClaim('0.000001', false)).toBe(true)
    expect(canClaim('12.50', true)).toBe(false)
  })

  it('shows a tier band, open-ended at the top', () => {
    expect(tierBand('1000.00', '5000.00')).toBe('1000.00 – 5000.00')
    expect(tierBand('50000.00', null)).toBe('≥ 50000.00')
  })
})
