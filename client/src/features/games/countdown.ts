/**
 * Countdowns follow the server's clock, not the device's: each round fetch gives the server time,
 * and the difference to the device clock at that moment (the offset) turns any later device time
 * into server time. A tab that sat in the background recomputes from the clock, so nothing drifts.
 */

/** Server time minus device time, measured once per fetch. Half the round trip is credited to the server. */
export function clockOffset(serverTime: number, sentAt: number, receivedAt: number): number {
  const midpoint = sentAt + Math.max(0, receivedAt - sentAt) / 2
  return Math.round(serverTime - midpoint)
}

/** Milliseconds left until `target` (server time) at device time `now`; never negative. */
export function msLeft(target: number, deviceNow: number, offset: number): number {
  return Math.max(0, target - (deviceNow + offset))
}

/** 75_400 → "01:16": whole seconds rounded up, so "00:00" shows only when the moment has come. */
export function formatCountdown(ms: number): string {
  const total = Math.ceil(Math.max(0, ms) / 1000)
  const minutes = Math.floor(total / 60)
  const seconds = total % 60
  return `${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`
}

/** Near the draw the round is polled every second so the result shows within a second of it. */
export const NEAR_DRAW_MS = 5_000
export const FAST_POLL_MS = 1_000
export const SLOW_POLL_MS = 10_000

/** How long to wait before the next round fetch. */
export function nextPollMs(msToDraw: number): number {
  if (msToDraw <= NEAR_DRAW_MS) return FAST_POLL_MS
  return Math.min(SLOW_POLL_MS, Math.max(FAST_POLL_MS, msToDraw - NEAR_DRAW_MS))
}
