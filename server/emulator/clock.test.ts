import { describe, expect, it } from 'vitest'
import { EmuClock } from './clock'

describe('the emulator clock', () => {
  it('runs real, frozen, offset, and advances', () => {
    let real = 1_000
    const clock = new EmuClock(() => real)
    expect(clock.now()).toBe(1_000)
    clock.freeze()
    real = 5_000
    expect(clock.now()).toBe(1_000)
    clock.advance(500)
    expect(clock.state()).toEqual({ mode: 'frozen', now: 1_500, offsetMs: 0 })
    clock.setOffset(100)
    expect(clock.now()).toBe(5_100)
    clock.real()
    clock.advance(60_000)
    expect(clock.state()).toEqual({ mode: 'offset', now: 65_000, offsetMs: 60_000 })
    expect(() => clock.advance(-1)).toThrow(RangeError)
  })

  it('tells listeners of world changes only', () => {
    const clock = new EmuClock(() => 0)
    const seen: number[] = []
    clock.onChange((now) => seen.push(now))
    clock.advance(10)
    clock.forScope('a').advance(1_000)
    clock.freeze(50)
    expect(seen).toEqual([10, 50])
  })

  it("a scope's clock is layered on the world's, and now() follows it inside the scope only", async () => {
    let real = 1_000
    const clock = new EmuClock(() => real)
    const a = clock.forScope('a')
    expect(a.now()).toBe(1_000)
    clock.advance(100)
    expect(a.now()).toBe(1_100)
    a.advance(10_000)
    expect(clock.nowFor('a')).toBe(11_100)
    expect(clock.nowFor('b')).toBe(1_100)
    const inside = await clock.runInScope('a', async () => {
      // Past a turn of the event loop: the scope is still there.
      await new Promise((r) => setImmediate(r))
      return {
        request: clock.requestNow(),
        now: clock.now(),
        world: clock.worldNow(),
      }
    })
    // The world keeps its own time inside a scoped request; deadline checks read the scope's.
    expect(inside).toEqual({ request: 11_100, now: 1_100, world: 1_100 })
    expect(clock.requestNow()).toBe(1_100)
    expect(clock.runInScope('b', () => clock.requestNow())).toBe(1_100)
    a.freeze()
    real = 9_999
    expect(clock.nowFor('a')).toBe(11_100)
    expect(clock.scopeStates()).toEqual([{ scope: 'a', clock: { mode: 'frozen', now: 11_100, offsetMs: 0 } }])
    clock.dropScope('a')
    expect(clock.nowFor('a')).toBe(clock.worldNow())
  })

  it('world listeners see world time even when a change is made inside a scope', () => {
    const clock = new EmuClock(() => 0)
    clock.forScope('a').setOffset(5_000)
    const seen: number[] = []
    clock.onChange(() => seen.push(clock.now()))
    clock.runInScope('a', () => clock.advance(1))
    expect(seen).toEqual([1])
  })
})
