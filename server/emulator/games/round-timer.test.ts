import type { StreamEvent } from '@shared/contract/stream'
import { afterEach, describe, expect, it } from 'vitest'
import { EmuClock } from '../clock'
import { gamesKit, T0 } from './games-test-kit'
import { RoundTimer, type Timers } from './round-timer'

/**
 * The draw goes out at its time with nobody asking: the round timer sets itself from the clock for
 * the next sealing or draw, and when it fires there, draws and announces. Its timers and clock are
 * the test's: the clock reads a number the test moves, and moving it tells nobody.
 */
class FakeTimers implements Timers {
  pending: { fn: () => void; ms: number } | null = null
  setTimeout(fn: () => void, ms: number): unknown {
    this.pending = { fn, ms }
    return this.pending
  }
  clearTimeout(handle: unknown): void {
    if (this.pending === handle) this.pending = null
  }
}

const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const c of closers.splice(0)) await c()
})

describe('RoundTimer', () => {
  it('fires at each sealing and draw time, and the draw goes out then, not later', async () => {
    const kit = await gamesKit(T0, 0)
    closers.push(() => kit.t.close())
    kit.t.app.emu.roundTimer.stop()
    kit.games.rounds.ensureChain()
    let now = T0
    const clock = new EmuClock(() => now)
    const timers = new FakeTimers()
    const out: { at: number; event: StreamEvent }[] = []
    kit.t.app.emu.events.subscribe((e) => {
      if (e.type === 'draw') out.push({ at: now, event: e })
    })
    const timer = new RoundTimer(
      clock,
      kit.games.rounds,
      (type, data) => out.push({ at: now, event: { type, data } as StreamEvent }),
      kit.t.app.log,
      timers,
    )
    timer.start()
    // Every game's round is announced once at the start.
    expect(out.filter((o) => o.event.type === 'round')).toHaveLength(5)
    const first = out.find((o) => o.event.type === 'round' && o.event.data.game === 'qukuai')?.event
    if (first?.type !== 'round') throw new Error('no qukuai round')
    // Run the timer through the block game's sealing and draw: each fire lands on a moment.
    const fires: number[] = []
    while (now < first.data.draw_at) {
      const p = timers.pending
      if (!p) throw new Error('no timer set')
      now += p.ms
      fires.push(now)
      p.fn()
    }
    expect(fires).toContain(first.data.seal_at)
    expect(fires.at(-1)).toBe(first.data.draw_at)
    const sealed = out.find(
      (o) =>
        o.event.type === 'round' &&
        o.event.data.round_id === first.data.round_id &&
        o.event.data.state === 'SEALED',
    )
    expect(sealed?.at).toBe(first.data.seal_at)
    const drawn = out.find((o) => o.event.type === 'draw' && o.event.data.round_id === first.data.round_id)
    expect(drawn?.at).toBe(first.data.draw_at)
    // Then the next round opens, announced after its predecessor's draw.
    const next = out.findIndex(
      (o) =>
        o.event.type === 'round' &&
        o.event.data.game === 'qukuai' &&
        o.event.data.round_id === first.data.next.round_id,
    )
    expect(next).toBeGreaterThan(out.indexOf(drawn as (typeof out)[number]))
    timer.stop()
    expect(timers.pending).toBeNull()
  })
})
