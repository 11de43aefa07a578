import type { HttpTimers } from '../lib/http'

export interface HandTimer {
  readonly ms: number
  fire(): void
}

/**
 * Timers a test fires itself (for setHttpTimers and the like): one never fired never goes off, so
 * a time-out is no real-time limit, and a pause lasts exactly until the test ends it.
 */
export function handTimers(): {
  timers: HttpTimers
  /** Timers set and neither fired nor cleared. */
  pending: Set<HandTimer>
  /** The next timer set for `ms`, or one already pending. */
  asked: (ms: number) => Promise<HandTimer>
} {
  const pending = new Set<HandTimer>()
  const waiting: { ms: number; resolve: (t: HandTimer) => void }[] = []
  const timers: HttpTimers = {
    setTimeout: (fn, ms) => {
      const timer: HandTimer = {
        ms,
        fire: () => {
          if (pending.delete(timer)) fn()
        },
      }
      pending.add(timer)
      const i = waiting.findIndex((w) => w.ms === ms)
      if (i >= 0) waiting.splice(i, 1)[0]?.resolve(timer)
      return timer
    },
    clearTimeout: (handle) => {
      pending.delete(handle as HandTimer)
    },
  }
  const asked = (ms: number) => {
    const there = [...pending].find((t) => t.ms === ms)
    if (there) return Promise.resolve(there)
    return new Promise<HandTimer>((resolve) => waiting.push({ ms, resolve }))
  }
  return { timers, pending, asked }
}
