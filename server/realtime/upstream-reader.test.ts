import type { GameCode } from '@shared/games/config'
import { describe, expect, it } from 'vitest'
import { Metrics } from '../ops/metrics'
import { FakeRoundUpstream, VirtualTime } from '../test-support/fake-round-upstream'
import { type HubEvent, MemoryEventHub } from './event-hub'
import type { Lease } from './lease'
import { soleLease } from './lease'
import { BATCH_WAIT_MS, READER_DEFAULTS, type RoundSource, UpstreamReader } from './upstream-reader'

/**
 * The upstream reader on a virtual clock (no real waits): a fake upstream whose rounds follow the
 * clock, timers the test fires by moving the clock.
 */

const T0 = 1_800_000_000_000

function setUp(
  opts: {
    games?: GameCode[]
    lease?: Lease
    lag?: number
    streams?: number
    metrics?: Metrics
    /** The reader's source over the fake upstream (by default the fake itself). */
    source?: (upstream: FakeRoundUpstream, time: VirtualTime) => RoundSource
  } = {},
) {
  const time = new VirtualTime(T0)
  const upstream = new FakeRoundUpstream(time, { lag: opts.lag ?? 0 })
  const hub = new MemoryEventHub(10_000, T0)
  const events: HubEvent[] = []
  /** The virtual time each event was published at, by index in `events`. */
  const publishedAt: number[] = []
  hub.subscribe((e) => {
    events.push(e)
    publishedAt.push(time.now)
  })
  // Open streams are subscribers of the hub: the reader neither knows nor cares how many.
  for (let i = 0; i < (opts.streams ?? 0); i++) hub.subscribe(() => undefined)
  const warnings: string[] = []
  const reader = new UpstreamReader({
    source: opts.source?.(upstream, time) ?? upstream,
    hub,
    lease: opts.lease ?? soleLease,
    now: () => time.now,
    timers: time.timers,
    log: { warn: (_o, msg) => warnings.push(msg), info: () => undefined },
    games: opts.games ?? ['qukuai'],
    metrics: opts.metrics ?? null,
  })
  return { time, upstream, hub, events, publishedAt, reader, warnings }
}

/** The minute's turn after T0: the lottery games draw, and so does the block game (3 s rounds). */
const MINUTE = T0 + 60_000

/** A source whose answers for the games in `held` wait until `release` is called. */
function holdingSource(held: Set<GameCode>) {
  const waiting: (() => void)[] = []
  return {
    release: () => {
      held.clear()
      for (const go of waiting.splice(0)) go()
    },
    source: (upstream: FakeRoundUpstream): RoundSource => ({
      round: async (game) => {
        if (held.has(game)) await new Promise<void>((go) => waiting.push(go))
        return upstream.round(game)
      },
      results: (game, count) => upstream.results(game, count),
    }),
  }
}

/** Events as `type game`, e.g. `draw kuaisan`. */
const named = (events: HubEvent[]) =>
  events.map((e) => `${e.type} ${e.type === 'draw' || e.type === 'round' ? e.data.game : ''}`.trim())

const draws = (events: HubEvent[]) => events.flatMap((e) => (e.type === 'draw' ? [e.data.round_id] : []))
const rounds = (events: HubEvent[]) =>
  events.flatMap((e) => (e.type === 'round' ? [`${e.data.round_id}:${e.data.state}`] : []))

describe('UpstreamReader', () => {
  it('reads the round once per draw, and publishes each draw and each round change as the emulator does', async () => {
    const { time, upstream, events, reader } = setUp()
    reader.start()
    await time.advance(0)
    expect(upstream.calls).toEqual({ round: 1, results: 0 })
    const first = upstream.currentId('qukuai')
    // The first read announces the round, not the draw before it (no news: a snapshot reads it).
    expect(draws(events)).toEqual([])
    expect(rounds(events)).toEqual([`${first}:OPEN`])

    await time.advance(30_300) // ten draws of the block game, each read 60 ms after its draw time
    expect(upstream.calls).toEqual({ round: 11, results: 0 })
    const ids = Array.from({ length: 10 }, (_, i) => String(first + i))
    expect(draws(events)).toEqual(ids)
    // Each round: sealed (from the round already read, no call), drawn, then the next one open.
    expect(
      events
        .map((e) =>
          e.type === 'round'
            ? `${e.data.round_id}:${e.data.state}`
            : e.type === 'draw'
              ? `draw ${e.data.round_id}`
              : e.type,
        )
        .slice(0, 7),
    ).toEqual([
      `${first}:OPEN`,
      `${first}:SEALED`,
      `draw ${first}`,
      `${first + 1}:OPEN`,
      `${first + 1}:SEALED`,
      `draw ${first + 1}`,
      `${first + 2}:OPEN`,
    ])
    // The draw event is the upstream's drawn round as its results list it; the sealed round is its answer with the state moved on.
    const draw = events.find((e) => e.type === 'draw')
    expect(draw?.data).toEqual(upstream.drawOf('qukuai', first))
    const sealed = events.find((e) => e.type === 'round' && e.data.state === 'SEALED')
    expect(sealed?.data).toMatchObject({ round_id: String(first), ms_to_seal: 0, state: 'SEALED' })
    expect(sealed?.type === 'round' && sealed.data.server_time).toBe(
      upstream.roundOf('qukuai', first).seal_at,
    )
    reader.stop()
  })

  it('makes the same calls whatever the number of open streams', async () => {
    const few = setUp({ streams: 1, games: ['qukuai', 'kuaisan'] })
    const many = setUp({ streams: 5_000, games: ['qukuai', 'kuaisan'] })
    for (const s of [few, many]) {
      s.reader.start()
      await s.time.advance(120_300) // 40 block draws and 2 lottery draws, each read just after
      s.reader.stop()
    }
    expect(many.upstream.calls).toEqual(few.upstream.calls)
    // One call a game a draw, plus the first read of each game.
    expect(many.upstream.calls).toEqual({ round: 40 + 2 + 2, results: 0 })
    expect(many.upstream.callsByGame).toEqual({ qukuai: 41, kuaisan: 3 })
  })

  it('asks again at short waits while the draw is not there yet, then stops asking for a while', async () => {
    const { time, upstream, events, reader, warnings } = setUp()
    reader.start()
    await time.advance(0)
    const first = upstream.currentId('qukuai')
    upstream.lag = 1_200
    const drawAt = upstream.roundOf('qukuai', first).draw_at
    // Read 60 ms after the draw time: not drawn; again 200 ms and 500 ms later: not yet; 1 s later: there.
    await time.advanceTo(drawAt + 60)
    expect(upstream.calls.round).toBe(2)
    expect(draws(events)).toEqual([])
    await time.advanceTo(drawAt + 260)
    expect(upstream.calls.round).toBe(3)
    await time.advanceTo(drawAt + 760)
    expect(upstream.calls.round).toBe(4)
    expect(draws(events)).toEqual([])
    await time.advanceTo(drawAt + 1_760)
    expect(upstream.calls.round).toBe(5)
    expect(draws(events)).toEqual([String(first)])

    // An upstream that stops drawing: the retries are bounded, then one question per stalled wait.
    upstream.lag = 1_000_000
    const next = upstream.roundOf('qukuai', first + 1).draw_at
    await time.advanceTo(next)
    const before = upstream.calls.round
    const retries = READER_DEFAULTS.retryMs.reduce((a, b) => a + b, 0)
    await time.advanceTo(next + READER_DEFAULTS.drawDelayMs + retries)
    expect(upstream.calls.round - before).toBe(1 + READER_DEFAULTS.retryMs.length)
    await time.advanceTo(next + READER_DEFAULTS.drawDelayMs + retries + READER_DEFAULTS.stalledMs - 1)
    expect(upstream.calls.round - before).toBe(1 + READER_DEFAULTS.retryMs.length)
    await time.advance(1)
    expect(upstream.calls.round - before).toBe(2 + READER_DEFAULTS.retryMs.length)
    expect(warnings).toContain('upstream reader: the draw is not there yet; asking again later')
    reader.stop()
  })

  it('reads the missed draws in one call after a stall, each announced once, in order', async () => {
    const { time, upstream, events, reader } = setUp()
    reader.start()
    await time.advance(0)
    const first = upstream.currentId('qukuai')
    await time.advance(3_300)
    expect(draws(events)).toEqual([String(first)])
    upstream.failing = true
    await time.advance(20_000)
    upstream.failing = false
    // The backoff (1 s, 2 s, 4 s, 8 s…) ends at the next question; then the gap is read from the results.
    await time.advance(20_000)
    const got = draws(events)
    const expected = Array.from({ length: got.length }, (_, i) => String(first + i))
    expect(got).toEqual(expected)
    expect(got.length).toBeGreaterThan(10)
    expect(upstream.calls.results).toBe(1)
    reader.stop()
  })

  it('makes no call while another process holds the lease, and takes over when it can', async () => {
    let held = false
    let asked = 0
    const lease: Lease = {
      tryHold: async () => {
        asked++
        return held
      },
      release: async () => undefined,
    }
    const { time, upstream, events, reader } = setUp({ lease })
    reader.start()
    await time.advance(60_000)
    expect(upstream.calls).toEqual({ round: 0, results: 0 })
    expect(events).toEqual([])
    expect(asked).toBeGreaterThanOrEqual(60_000 / READER_DEFAULTS.leaseCheckMs)
    expect(reader.reading).toBe(false)

    held = true
    await time.advance(READER_DEFAULTS.leaseCheckMs)
    expect(reader.reading).toBe(true)
    expect(upstream.calls.round).toBe(1)
    await time.advance(9_000)
    expect(upstream.calls.round).toBe(4)

    // Lost: the next turn finds out and no more calls are made.
    held = false
    await time.advance(3_000)
    const calls = upstream.calls.round
    await time.advance(60_000)
    expect(upstream.calls.round).toBe(calls)
    expect(reader.reading).toBe(false)
    reader.stop()
  })

  it('a process taking over announces the draws made while the lease changed hands', async () => {
    const { time, upstream, hub, events, reader: first } = setUp()
    let holder: 'first' | 'second' | null = 'first'
    const leaseOf = (me: 'first' | 'second'): Lease => ({
      tryHold: async () => holder === me,
      release: async () => undefined,
    })
    const reading = (me: 'first' | 'second') =>
      new UpstreamReader({
        source: upstream,
        hub,
        lease: leaseOf(me),
        now: () => time.now,
        timers: time.timers,
        log: { warn: () => undefined, info: () => undefined },
        games: ['qukuai'],
      })
    first.stop()
    const a = reading('first')
    const b = reading('second')
    a.start()
    b.start()
    await time.advance(0)
    const start = upstream.currentId('qukuai')
    await time.advance(9_300)
    expect(draws(events)).toEqual([String(start), String(start + 1), String(start + 2)])
    // The holder stops without a word (killed); nobody reads until its lease has run out.
    a.stop()
    holder = null
    await time.advance(12_000)
    holder = 'second'
    await time.advance(READER_DEFAULTS.leaseCheckMs + 1_000)
    const got = draws(events)
    // Every draw once, in order, those made in the gap included.
    expect(got).toEqual(Array.from({ length: got.length }, (_, i) => String(start + i)))
    expect(got.length).toBeGreaterThanOrEqual(8)
    b.stop()
  })

  it('counts its calls by endpoint in the metrics', async () => {
    const metrics = new Metrics({ defaultMetrics: false })
    const { time, reader } = setUp({ metrics })
    reader.start()
    await time.advance(9_300)
    reader.stop()
    const text = await metrics.text()
    expect(text).toContain('upstream_reader_calls_total{endpoint="currentRound"} 4')
  })

  it('reads while a stream is open, and a while after the last one closes, then gives the lease up', async () => {
    let released = 0
    const lease: Lease = { tryHold: async () => true, release: async () => void released++ }
    const { time, upstream, reader } = setUp({ lease })
    await time.advance(10_000)
    expect(upstream.calls.round).toBe(0)
    reader.streamsOpen(1)
    await time.advance(3_300)
    expect(upstream.calls.round).toBe(2)
    reader.streamsOpen(0)
    // An app reconnecting within the linger finds it reading: nothing stops.
    await time.advance(READER_DEFAULTS.lingerMs - 1_000)
    reader.streamsOpen(1)
    reader.streamsOpen(0)
    await time.advance(READER_DEFAULTS.lingerMs - 1)
    expect(reader.started).toBe(true)
    await time.advance(1)
    expect(reader.started).toBe(false)
    expect(released).toBe(1)
    const calls = upstream.calls.round
    await time.advance(60_000)
    expect(upstream.calls.round).toBe(calls)
    expect(time.pending).toBe(0)
  })

  /**
   * The block game and a lottery game at the minute's turn, the lottery game's answer held from just
   * before it: `since()` names the events published from then on.
   */
  async function atTheMinuteWithKuaisanHeld() {
    const held = new Set<GameCode>()
    const { release, source } = holdingSource(held)
    const { time, events, reader } = setUp({ games: ['qukuai', 'kuaisan'], source })
    reader.start()
    await time.advanceTo(MINUTE - 100)
    const before = events.length
    held.add('kuaisan')
    return { time, reader, release, since: () => named(events.slice(before)) }
  }

  const BOTH = ['draw qukuai', 'round qukuai', 'draw kuaisan', 'round kuaisan']

  it('publishes the events of games drawing at the same instant together, once the last has answered', async () => {
    const { time, reader, release, since } = await atTheMinuteWithKuaisanHeld()
    await time.advanceTo(MINUTE + READER_DEFAULTS.drawDelayMs + 10)
    // The block game's draw is read, and waits for the lottery game's answer.
    expect(since()).toEqual([])
    release()
    await time.advance(0)
    expect(since()).toEqual(BOTH)
    reader.stop()
  })

  it('publishes what is ready after BATCH_WAIT_MS when another game of its instant has not answered', async () => {
    const { time, reader, release, since } = await atTheMinuteWithKuaisanHeld()
    await time.advanceTo(MINUTE + READER_DEFAULTS.drawDelayMs)
    await time.advance(BATCH_WAIT_MS - 1)
    expect(since()).toEqual([])
    await time.advance(1)
    expect(since()).toEqual(['draw qukuai', 'round qukuai'])
    release()
    await time.advance(0)
    expect(since()).toEqual(BOTH)
    reader.stop()
  })

  it('times every game on one reading of the upstream clock: a slow answer does not put its game out of step', async () => {
    let slowFirst = true
    const { time, events, publishedAt, reader } = setUp({
      games: ['qukuai', 'kuaisan'],
      // The lottery game's first answer takes 80 ms on the way (its server_time is when it left).
      source: (upstream, t) => ({
        round: async (game) => {
          const answer = await upstream.round(game)
          if (game === 'kuaisan' && slowFirst) {
            slowFirst = false
            await new Promise<void>((go) => t.timers.setTimeout(go, 80))
          }
          return answer
        },
        results: (game, count) => upstream.results(game, count),
      }),
    })
    reader.start()
    await time.advanceTo(MINUTE + 1_000)
    const at = (name: string) => publishedAt[named(events).lastIndexOf(name)]
    // Both sealed at the same instant, 3 s before the minute, and both drawn and read 60 ms after it.
    expect(at('round kuaisan')).toBe(MINUTE + READER_DEFAULTS.drawDelayMs)
    expect(at('draw kuaisan')).toBe(MINUTE + READER_DEFAULTS.drawDelayMs)
    expect(at('draw qukuai')).toBe(MINUTE + READER_DEFAULTS.drawDelayMs)
    const sealed = events.flatMap((e, i) =>
      e.type === 'round' && e.data.state === 'SEALED' && e.data.game === 'kuaisan' ? [publishedAt[i]] : [],
    )
    expect(sealed).toEqual([MINUTE - 3_000])
    reader.stop()
  })

  it('stops asking when stopped', async () => {
    const { time, upstream, reader } = setUp()
    reader.start()
    await time.advance(3_500)
    reader.stop()
    const calls = upstream.calls.round
    await time.advance(60_000)
    expect(upstream.calls.round).toBe(calls)
    expect(time.pending).toBe(0)
  })
})
