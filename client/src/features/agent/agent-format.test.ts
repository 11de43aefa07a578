import { describe, expect, it } from 'vitest'
import { daysInRange, maskId } from './agent-format'

describe('agent display helpers', () => {
  it('counts both ends of a range, across a month end', () => {
    expect(daysInRange(new Date(2026, 0, 1), new Date(2026, 0, 1))).toBe(1)
    expect(daysInRange(new Date(2026, 0, 25), new Date(2026, 1, 24))).toBe(31)
  })

  it('masks ids', () => {
    expect(maskId(100234)).toBe('1***4')
    expect(maskId(123)).toBe('1***3')
    // Too short to keep both ends: never the whole id.
    expect(maskId(42)).toBe('4***')
    expect(maskId(7)).toBe('***')
  })
})
