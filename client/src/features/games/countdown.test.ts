import { describe, expect, it } from 'vitest'
import { clockOffset, FAST_POLL_MS, formatCountdown, msLeft, nextPollMs, SLOW_POLL_MS } from './countdown'

describe('countdown', () => {
  it('measures the server clock offset at the middle of the round trip', () => {
    expect(clockOffset(10_000, 1_000, 1_200)).toBe(8_900)
    expect(clockOffset(1_000, 5_000, 5_000)).toBe(-4_000)
  })

  it('counts down on server time, and a tab back from the background sees no drift', () => {
    const offset = clockOffset(100_000, 50_000, 50_000)
    expect(msLeft(130_000, 50_000, offset)).toBe(30_000)
    // Two minutes in the background: the device clock moved on, the countdown with it.
    expect(msLeft(130_000, 70_000, offset)).toBe(10_000)
    expect(msLeft(130_000, 170_000, offset)).toBe(0)
  })

  it('formats whole seconds rounded up', () => {
    expect(formatCountdown(75_400)).toBe('01:16')
    expect(formatCountdown(1)).toBe('00:01')
    expect(formatCountdown(0)).toBe('00:00')
    expect(formatCountdown(-5)).toBe('00:00')
  })

  it('polls every second near the draw and slowly before it', () => {
    expect(nextPollMs(3_000)).toBe(FAST_POLL_MS)
    expect(nextPollMs(0)).toBe(FAST_POLL_MS)
    expect(nextPollMs(60_000)).toBe(SLOW_POLL_MS)
    expect(nextPollMs(8_000)).toBe(3_000)
  })
})
