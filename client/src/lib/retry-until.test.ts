import { describe, expect, it } from 'vitest'
import { type RetryTimers, retryUntil } from './retry-until'

/** Timers the test runs by hand: what is pending and after how long. */
function manualTimers() {
  let next = 1
  const pending = new Map<number, { fn: () => void; ms: number }>()
  const timers: RetryTimers = {
    setTimeout: (fn, ms) => {
      const id = next++
      pending.set(id, { fn, ms })
      return id
    },
    clearTimeout: (id) => void pending.delete(id as number),
  }
  const fire = async () => {
    const [id, t] = [...pending.entries()][0] ?? []
    if (id === undefined || !t) throw new Error('no timer pending')
    pending.delete(id)
    t.fn()
    await Promise.resolve()
    await Promise.resolve()
  }
  return { timers, pending, fire }
}

function reconnects() {
  const listeners = new Set<() => void>()
  return {
    onReconnect: (l: () => void) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    reconnect: () => {
      for (const l of listeners) l()
    },
    count: () => listeners.size,
  }
}

describe('retryUntil', () => {
  it('waits the next delay after each failure, the last one repeating, until the task succeeds', async () => {
    const { timers, pending, fire } = manualTimers()
    const net = reconnects()
    const results = [false, false, false, true]
    let runs = 0
    const r = retryUntil(async () => results[runs++] ?? true, {
      delays: [100, 200],
      onReconnect: net.onReconnect,
      timers,
    })
    expect([...pending.values()].map((t) => t.ms)).toEqual([100])
    await fire()
    expect([...pending.values()].map((t) => t.ms)).toEqual([200])
    await fire()
    expect([...pending.values()].map((t) => t.ms)).toEqual([200])
    await fire()
    expect(runs).toBe(3)
    await fire()
    expect(runs).toBe(4)
    expect(r.done).toBe(true)
    expect(pending.size).toBe(0)
    expect(net.count()).toBe(0)
  })

  it('tries at once when the server answers again, and counts a rejection as a failure', async () => {
    const { timers, pending } = manualTimers()
    const net = reconnects()
    let ok = false
    let runs = 0
    const r = retryUntil(
      async () => {
        runs++
        if (!ok) throw new Error('offline')
        return true
      },
      { delays: [60_000], onReconnect: net.onReconnect, timers },
    )
    net.reconnect()
    await Promise.resolve()
    await Promise.resolve()
    expect(runs).toBe(1)
    expect(r.done).toBe(false)
    expect(pending.size).toBe(1)
    ok = true
    net.reconnect()
    await Promise.resolve()
    await Promise.resolve()
    expect(runs).toBe(2)
    expect(r.done).toBe(true)
    expect(pending.size).toBe(0)
  })

  it('tries again at once when the server answered while a failing attempt was on its way', async () => {
    const { timers, pending } = manualTimers()
    const net = reconnects()
    let release: (ok: boolean) => void = () => undefined
    let runs = 0
    const r = retryUntil(
      () => {
        runs++
        return new Promise<boolean>((resolve) => (release = resolve))
      },
      { delays: [60_000], onReconnect: net.onReconnect, timers },
    )
    net.reconnect()
    net.reconnect()
    expect(runs).toBe(1)
    release(false)
    await Promise.resolve()
    await Promise.resolve()
    expect(runs).toBe(2)
    release(true)
    await Promise.resolve()
    await Promise.resolve()
    expect(r.done).toBe(true)
    expect(pending.size).toBe(0)
  })

  it('stops for good when told to', async () => {
    const { timers, pending } = manualTimers()
    const net = reconnects()
    let runs = 0
    const r = retryUntil(async () => ++runs > 5, { delays: [10], onReconnect: net.onReconnect, timers })
    r.stop()
    net.reconnect()
    await Promise.resolve()
    expect(runs).toBe(0)
    expect(pending.size).toBe(0)
  })
})
