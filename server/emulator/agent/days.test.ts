import { describe, expect, it } from 'vitest'
import { addDays, dayOf, dayRange, daysBetween, isDay, startOfDay } from './days'

describe('local days', () => {
  it('names the local day of an instant and its bounds', () => {
    const noon = new Date(2026, 2, 10, 12, 30).getTime()
    expect(dayOf(noon)).toBe('2026-03-10')
    const { start, end } = dayRange('2026-03-10')
    expect(start).toBe(new Date(2026, 2, 10).getTime())
    expect(end).toBe(new Date(2026, 2, 11).getTime())
    expect(dayOf(end - 1)).toBe('2026-03-10')
    expect(dayOf(end)).toBe('2026-03-11')
    expect(startOfDay('2026-01-01')).toBe(new Date(2026, 0, 1).getTime())
  })

  it('adds days across months and years', () => {
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01')
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29')
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31')
    expect(addDays('2026-03-10', -6)).toBe('2026-03-04')
  })

  it('lists a range newest first, and nothing when it is backwards', () => {
    expect(daysBetween('2026-03-08', '2026-03-10')).toEqual(['2026-03-10', '2026-03-09', '2026-03-08'])
    expect(daysBetween('2026-03-11', '2026-03-10')).toEqual([])
  })

  it('knows real calendar days', () => {
    expect(isDay('2026-02-28')).toBe(true)
    expect(isDay('2026-02-30')).toBe(false)
    expect(isDay('2026-13-01')).toBe(false)
    expect(isDay('26-01-01')).toBe(false)
  })
})
