import type { ActionTimers } from '../fault/fault-actions'

/**
 * Timers for the fault actions that wait for nothing: each callback runs on the next turn of the
 * event loop, and what was asked for is noted, so a test checks the delays without sitting them out.
 */
export function promptTimers(): { timers: ActionTimers; asked: number[] } {
  const asked: number[] = []
  return {
    asked,
    timers: {
      setTimeout: (fn, ms) => {
        asked.push(ms)
        return setImmediate(fn)
      },
      clearTimeout: (handle) => clearImmediate(handle as NodeJS.Immediate),
    },
  }
}

/** Timers the test fires by hand; `asked()` resolves with the next one the actions ask for. */
export function handTimers(): {
  timers: ActionTimers
  asked: () => Promise<{ ms: number; fire: () => void }>
} {
  const waiting: ((t: { ms: number; fire: () => void }) => void)[] = []
  const set: { ms: number; fire: () => void }[] = []
  return {
    timers: {
      setTimeout: (fn, ms) => {
        const timer = { ms, fire: fn }
        const next = waiting.shift()
        if (next) next(timer)
        else set.push(timer)
        return timer
      },
      clearTimeout: () => undefined,
    },
    asked: () => {
      const first = set.shift()
      if (first) return Promise.resolve(first)
      return new Promise((resolve) => waiting.push(resolve))
    },
  }
}
