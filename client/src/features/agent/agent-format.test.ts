import { describe, expect, it } from 'vitest'
import { daysInRange, fromDateParam, maskId, shownAmount, toDateParam } from './agent-format'

describe('agent display helpers', () => {
  it('writes and reads local dates as YYYY-MM-DD', () => {
    expect(toDateParam(new Date(2026, 0, 5))).toBe('2026-01-05')
    expect(fromDateParam('2026-11-22')?.getDate()).toBe(22)
    expect(fromDateParam('2026-02-30')).toBeNull()
    expect(fromDateParam('22/11/2026')).toBeNull()
  })

  it('counts both ends of a range, across a month end', () => {
    expect(daysInRange(new Date(2026, 0, 1), new Date(2026, 0, 1))).toBe(1)
    expect(daysInRange(new Date(2026, 0, 25), new Date(2026, 1, 24))).toBe(31)
  })

  it('hides amounts and masks ids', () => {
    expect(shownAmount('12.50', false)).toBe('12.50')
    expect(shownAmount('0.158300', false)).toBe('0.1583')
    expect(shownAmount('12.50', true)).toBe('****')
    expect(maskId(100234)).toBe('1***4')
    expect(maskId(7)).toBe('7***')
  })
})
