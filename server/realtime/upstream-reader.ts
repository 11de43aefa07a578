import type { DataOf } from '@shared/contract/endpoint'
import { currentRound, type drawResultSchema, gameResults } from '@shared/contract/games'
import type { StreamEvent } from '@shared/contract/stream'
import { GAME_CODES, type GameCode } from '@shared/games/config'
import type { z } from 'zod'
import type { Metrics } from '../ops/metrics'
import type { UpstreamClient } from '../upstream/upstream-client'
import { EVERYONE, type EventHub } from './event-hub'
import type { Lease } from './lease'

type Round = DataOf<typeof currentRound>
type DrawResult = z.infer<typeof drawResultSchema>

/** The reader's two questions to the upstream; each throws when it gets no usable answer. */
export interface RoundSource {
  /** `GET /api/games/round?game=…` (contract `currentRound`). */
  round(game: GameCode): Promise<Round>
  /** `GET /api/games/results?game=…&page=1&page_size=count` (contract `gameResults`), newest first. */
  results(game: GameCode, count: number): Promise<DrawResult[]>
}

/** Which endpoint a reader call went to (the metric's label). */
export type ReaderEndpoint = 'currentRound' | 'gameResults'

/** The source over the proxy's own upstream client (the adapter applied, answers checked). */
export function upstreamRoundSource(client: UpstreamClient): RoundSource {
  const data = <T>(
    id: string,
    outcome: { kind: string; data?: T; code?: number; msg?: string; status?: number },
  ) => {
    if (outcome.kind === 'ok') return outcome.data as T
    if (outcome.kind === 'missing') throw new Error(`upstream ${id}: not served (HTTP ${outcome.status})`)
    throw new Error(`upstream ${id}: refused with code ${outcome.code} ${outcome.msg ?? ''}`.trim())
  }
  return {
    round: async (game) => data<Round>('currentRound', await client.call(currentRound, { game })),
    results: async (game, count) =>
      data<DataOf<typeof gameResults>>(
        'gameResults',
        await client.call(gameResults, { game, page: '1', page_size: String(count) }),
      ).list,
  }
}

/** The reader's timers; tests hand in their own. */
export interface ReaderTimers {
  setTimeout(fn: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

const realTimers: ReaderTimers = {
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms)
    t.unref()
    return t
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
}

export interface ReaderOptions {
  readonly source: RoundSource
  readonly hub: EventHub
  /** Only the process holding it reads (soleLease for one process). */
  readonly lease: Lease
  /** This machine's clock (ms). */
  readonly now?: () => number
  readonly timers?: ReaderTimers
  readonly log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void }
  readonly metrics?: Metrics | null
  readonly games?: readonly GameCode[]
  /** The round is read this long after its draw time, so the upstream has drawn it. */
  readonly drawDelayMs?: number
  /** Waits before asking again while the draw is not there yet; after the last, {@link stalledMs}. */
  readonly retryMs?: readonly number[]
  /** After the retries, the round is read again only this much later. */
  readonly stalledMs?: number
  /** A failed call is tried again after 1 s, 2 s, 4 s… up to this. */
  readonly maxBackoffMs?: number
  /** The lease is asked about this often besides each turn (a standby process takes over within it). */
  readonly leaseCheckMs?: number
  /** Draws announced at most per game when several were missed (as the emulator does after a clock jump). */
  readonly gapLimit?: number
  /** After the process's last stream closes, reading goes on this long (a reconnecting app finds it running). */
  readonly lingerMs?: number
}

/**
 * Turns that start within this many ms of each other (the minute games and the block game reaching
 * the same draw instant) publish their events together: each stream then gets them in one write.
 */
export const BATCH_JOIN_MS = 20

/** An event that is ready waits at most this long for the rest of its batch. */
export const BATCH_WAIT_MS = 100

/** Reads whose clock readings are kept to work out the upstream's clock against this machine's. */
const OFFSET_SAMPLES = 16
/** A reading this far from the kept ones means a clock was set: the kept ones are dropped. */
const OFFSET_RESET_MS = 1_000

/** Events of turns that began together, published together (see {@link BATCH_JOIN_MS}). */
interface Batch {
  readonly openedAt: number
  /** Turns of the batch not finished yet. */
  members: number
  readonly events: StreamEvent[]
  timer: unknown
  flushed: boolean
}

export const READER_DEFAULTS = {
  // An upstream that draws on time has drawn 60 ms after; one that lags is asked again soon after.
  drawDelayMs: 60,
  retryMs: [200, 500, 1_000, 2_000],
  stalledMs: 15_000,
  maxBackoffMs: 60_000,
  leaseCheckMs: 5_000,
  gapLimit: 20,
  lingerMs: 60_000,
} as const

interface GameState {
  timer: unknown
  busy: boolean
  /** The round as last read. */
  round: Round | null
  /** The last round event published (`round_id:state`). */
  roundKey: string | null
  /** The newest draw announced or found at the first read; undefined: none read yet (no baseline). */
  lastDraw: DrawResult | null | undefined
  /** The round whose draw the next read expects to find made. */
  expect: string | null
  notDrawnTries: number
  failures: number
}

/**
 * Proxy mode's source of `round` and `draw` events (docs/realtime.md#proxy-mode). The upstream
 * offers no push channel, so one process reads its public round endpoint for each game once per
 * draw, a moment after the round's draw time, and publishes what changed to the hub for every open
 * stream: the drawn round (the answer's `previous`) as `draw`, the new round as `round`. The sealing
 * in between is announced from the round already read (its `seal_at`), without a call. A draw not
 * made yet is asked about again a few times at short waits, then after {@link READER_DEFAULTS}
 * `stalledMs`; several draws missed (a stall, a takeover) are read from the results endpoint in one
 * call. Calls never depend on how many streams are open. With several processes only the holder of
 * the lease reads; the others stand by and ask for it every `leaseCheckMs`.
 */
export class UpstreamReader {
  private running = false
  private holding = false
  private leaseTimer: unknown = null
  private inFlight = 0
  private streams = 0
  private lingerTimer: unknown = null
  private idleWaiters: (() => void)[] = []
  private readonly states = new Map<GameCode, GameState>()
  private batch: Batch | null = null
  /**
   * This machine's clock minus the upstream's (`server_time`), one reading per read, the newest
   * last. The least of them is the reading the least delayed by the way there, and the one used:
   * every game's seal and draw is then timed on one clock, so games sealing or drawing at the same
   * instant are turned together (one batch), however late each read's answer came.
   */
  private offsets: number[] = []
  private offset = 0
  private readonly o: Required<Omit<ReaderOptions, 'metrics'>> & { metrics: Metrics | null }
  /** Calls made, by endpoint, since start (for tests and benchmarks; the metric counts the same). */
  readonly calls: Record<ReaderEndpoint, number> = { currentRound: 0, gameResults: 0 }
  /** Events published, by type (for tests and benchmarks). */
  readonly published = { round: 0, draw: 0 }

  constructor(opts: ReaderOptions) {
    this.o = {
      now: Date.now,
      timers: realTimers,
      games: GAME_CODES,
      ...READER_DEFAULTS,
      ...opts,
      metrics: opts.metrics ?? null,
    }
    for (const game of this.o.games) this.states.set(game, freshState())
  }

  private unsubscribe: (() => void) | null = null

  start(): void {
    if (this.running) return
    this.running = true
    // Every draw announced, by this process or another holder of the lease (a shared hub): a
    // process that takes over carries on from the newest one, so the draws made while the lease
    // changed hands are announced too.
    this.unsubscribe = this.o.hub.subscribe((e) => {
      if (e.type !== 'draw') return
      const st = this.states.get(e.data.game)
      if (st && (!st.lastDraw || e.data.draw_at > st.lastDraw.draw_at)) st.lastDraw = e.data
    })
    void this.checkLease()
  }

  stop(): void {
    this.running = false
    this.holding = false
    this.unsubscribe?.()
    this.unsubscribe = null
    if (this.leaseTimer !== null) this.o.timers.clearTimeout(this.leaseTimer)
    this.leaseTimer = null
    if (this.lingerTimer !== null) this.o.timers.clearTimeout(this.lingerTimer)
    this.lingerTimer = null
    for (const [game, st] of this.states) {
      this.clear(st)
      this.states.set(game, freshState())
    }
  }

  /** The games it reads. */
  get games(): readonly GameCode[] {
    return this.o.games
  }

  /** Whether it runs (started and not stopped). */
  get started(): boolean {
    return this.running
  }

  /**
   * The number of streams open in this process changed. The reader runs while there is one, and
   * `lingerMs` after the last closes; then it stops and gives the lease up. A process without
   * streams thus never reads, and with several processes one that has streams takes over.
   */
  streamsOpen(open: number): void {
    this.streams = open
    if (open > 0) {
      if (this.lingerTimer !== null) this.o.timers.clearTimeout(this.lingerTimer)
      this.lingerTimer = null
      this.start()
      return
    }
    if (!this.running || this.lingerTimer !== null) return
    this.lingerTimer = this.o.timers.setTimeout(() => {
      this.lingerTimer = null
      if (this.streams > 0) return
      this.stop()
      this.o.lease
        .release()
        .catch((err: unknown) => this.o.log.warn({ err }, 'upstream reader: releasing the lease failed'))
    }, this.o.lingerMs)
  }

  /** Resolves when no turn is under way (tests and benchmarks moving a virtual clock wait for it). */
  whenIdle(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve()
    return new Promise((resolve) => this.idleWaiters.push(resolve))
  }

  private begin(): void {
    this.inFlight++
  }

  private end(): void {
    this.inFlight--
    if (this.inFlight > 0) return
    for (const resolve of this.idleWaiters.splice(0)) resolve()
  }

  /** Whether this process reads now (it held the lease at its last question). */
  get reading(): boolean {
    return this.holding
  }

  private async checkLease(): Promise<void> {
    this.leaseTimer = null
    this.begin()
    try {
      const held = await this.hold()
      if (!this.running) return
      if (held && !this.holding) {
        this.holding = true
        for (const game of this.o.games) this.schedule(game, 0, 'read')
      } else if (!held && this.holding) this.standBy()
      this.leaseTimer = this.o.timers.setTimeout(() => void this.checkLease(), this.o.leaseCheckMs)
    } finally {
      this.end()
    }
  }

  private async hold(): Promise<boolean> {
    try {
      return await this.o.lease.tryHold()
    } catch (err) {
      this.o.log.warn({ err }, 'upstream reader: the lease could not be asked about; standing by')
      return false
    }
  }

  /**
   * Another process reads: forget what was read, but the newest draw announced, which the hub
   * keeps telling (see start): a takeover announces every draw after it.
   */
  private standBy(): void {
    this.holding = false
    for (const [game, st] of this.states) {
      this.clear(st)
      this.states.set(game, { ...freshState(), lastDraw: st.lastDraw })
    }
  }

  private clear(st: GameState): void {
    if (st.timer !== null) this.o.timers.clearTimeout(st.timer)
    st.timer = null
  }

  private schedule(game: GameCode, ms: number, kind: 'read' | 'seal'): void {
    const st = this.states.get(game)
    if (!st || !this.running) return
    this.clear(st)
    st.timer = this.o.timers.setTimeout(
      () => {
        st.timer = null
        void this.turn(game, kind)
      },
      Math.max(0, ms),
    )
  }

  private async turn(game: GameCode, kind: 'read' | 'seal'): Promise<void> {
    const st = this.states.get(game)
    if (!st || st.busy) return
    st.busy = true
    this.begin()
    const batch = this.joinBatch()
    try {
      const held = await this.hold()
      if (!this.running || this.states.get(game) !== st) return
      if (!held) {
        this.standBy()
        return
      }
      this.holding = true
      if (kind === 'seal') this.seal(game, st, batch)
      else await this.read(game, st, batch)
    } catch (err) {
      // Publishing failed (a shared hub out of reach): read again later, as after a failed call.
      this.o.log.warn({ err, game }, 'upstream reader: a turn failed')
      if (this.running && this.states.get(game) === st) this.schedule(game, this.o.stalledMs, 'read')
    } finally {
      st.busy = false
      this.leaveBatch(batch)
      this.end()
    }
  }

  private joinBatch(): Batch {
    const now = this.o.now()
    const open = this.batch
    if (open && !open.flushed && now - open.openedAt <= BATCH_JOIN_MS) {
      open.members++
      return open
    }
    const fresh: Batch = { openedAt: now, members: 1, events: [], timer: null, flushed: false }
    this.batch = fresh
    return fresh
  }

  private leaveBatch(batch: Batch): void {
    batch.members--
    if (batch.members > 0 || batch.flushed) return
    if (batch.events.length === 0) {
      this.flush(batch)
      return
    }
    // Not at once: the turns of the other timers due at the same instant run after this one's
    // (each finishing before the next timer's turn starts) and join it in the meantime.
    if (batch.timer !== null) this.o.timers.clearTimeout(batch.timer)
    batch.timer = this.o.timers.setTimeout(() => this.flush(batch), 0)
  }

  /** Publishes an event with its batch: at once when the batch has gone out, else with it. */
  private emit(batch: Batch, event: StreamEvent): void {
    if (batch.flushed) {
      this.o.hub.publish(event, EVERYONE)
      return
    }
    batch.events.push(event)
    if (batch.timer === null) batch.timer = this.o.timers.setTimeout(() => this.flush(batch), BATCH_WAIT_MS)
  }

  private flush(batch: Batch): void {
    if (batch.flushed) return
    batch.flushed = true
    if (batch.timer !== null) this.o.timers.clearTimeout(batch.timer)
    batch.timer = null
    if (this.batch === batch) this.batch = null
    // One after the other in one go: each process's streams get them in one write.
    for (const event of batch.events.splice(0)) {
      try {
        this.o.hub.publish(event, EVERYONE)
      } catch (err) {
        this.o.log.warn({ err, type: event.type }, 'upstream reader: publishing an event failed')
      }
    }
  }

  /** The round's sealing, from the round already read: announced without asking the upstream. */
  private seal(game: GameCode, st: GameState, batch: Batch): void {
    const round = st.round
    if (!round) {
      this.schedule(game, 0, 'read')
      return
    }
    const serverNow = this.o.now() - this.offset
    this.publishRound(batch, st, {
      ...round,
      server_time: serverNow,
      ms_to_seal: 0,
      ms_to_draw: round.draw_at - serverNow,
      state: 'SEALED',
    })
    st.expect = round.round_id
    this.schedule(game, this.localTime(round, round.ms_to_draw) + this.o.drawDelayMs - this.o.now(), 'read')
  }

  /** A reading of the upstream's clock: `server_time` against this machine's clock when it came. */
  private readClock(readAt: number, serverTime: number): void {
    const sample = readAt - serverTime
    if (this.offsets.length > 0 && Math.abs(sample - this.offset) > OFFSET_RESET_MS) this.offsets = []
    this.offsets.push(sample)
    if (this.offsets.length > OFFSET_SAMPLES) this.offsets.shift()
    this.offset = Math.min(...this.offsets)
  }

  /** This machine's time of the instant `msAfter` past the round's `server_time`. */
  private localTime(round: Round, msAfter: number): number {
    return round.server_time + msAfter + this.offset
  }

  private async read(game: GameCode, st: GameState, batch: Batch): Promise<void> {
    let round: Round
    try {
      round = await this.call('currentRound', () => this.o.source.round(game))
    } catch (err) {
      st.failures++
      const wait = Math.min(this.o.maxBackoffMs, 1_000 * 2 ** Math.min(st.failures - 1, 20))
      if (st.failures === 1) this.o.log.warn({ err, game }, 'upstream reader: reading the round failed')
      if (this.running && this.states.get(game) === st) this.schedule(game, wait, 'read')
      return
    }
    if (!this.running || this.states.get(game) !== st) return
    st.failures = 0
    const readAt = this.o.now()
    this.readClock(readAt, round.server_time)
    // The round still current past its draw time, or the very round whose draw is awaited: not drawn yet.
    if (round.ms_to_draw <= 0 || (st.expect !== null && round.round_id === st.expect)) {
      st.notDrawnTries++
      const wait = this.o.retryMs[st.notDrawnTries - 1]
      if (wait !== undefined) {
        this.schedule(game, wait, 'read')
        return
      }
      this.o.metrics?.upstreamReaderFailures.inc({ endpoint: 'currentRound', kind: 'not_drawn' })
      this.o.log.warn(
        { game, round_id: round.round_id, tries: st.notDrawnTries },
        'upstream reader: the draw is not there yet; asking again later',
      )
      st.notDrawnTries = 0
      this.schedule(game, this.o.stalledMs, 'read')
      return
    }
    st.notDrawnTries = 0
    st.expect = null
    const known = st.round
    st.round = round
    await this.publishDraws(batch, game, st, round, known)
    if (!this.running || this.states.get(game) !== st) return
    this.publishRound(batch, st, round)
    const now = this.o.now()
    if (round.state === 'OPEN' && round.ms_to_seal > 0)
      this.schedule(game, this.localTime(round, round.ms_to_seal) - now, 'seal')
    else {
      st.expect = round.round_id
      this.schedule(game, this.localTime(round, round.ms_to_draw) + this.o.drawDelayMs - now, 'read')
    }
  }

  /** The draws since the last one announced: the answer's `previous`, or the results when several were missed. */
  private async publishDraws(
    batch: Batch,
    game: GameCode,
    st: GameState,
    round: Round,
    known: Round | null,
  ): Promise<void> {
    const drawn = round.previous
    const last = st.lastDraw
    if (last === undefined) {
      // The first read: what is drawn already is no news (a new stream's snapshot reads it).
      st.lastDraw = drawn
      return
    }
    if (!drawn || drawn.round_id === last?.round_id) return
    let fresh: DrawResult[] = [drawn]
    // The round read last time is the one drawn: exactly one draw is new. Otherwise some were missed.
    if (known?.round_id !== drawn.round_id) {
      try {
        const rows = await this.call('gameResults', () => this.o.source.results(game, this.o.gapLimit))
        const since = last?.draw_at ?? Number.NEGATIVE_INFINITY
        const newer = rows.filter((r) => r.game === game && r.draw_at > since)
        if (newer.some((r) => r.round_id === drawn.round_id))
          fresh = newer.slice(0, this.o.gapLimit).reverse()
      } catch (err) {
        this.o.log.warn(
          { err, game },
          'upstream reader: reading the missed draws failed; announcing the latest',
        )
      }
    }
    st.lastDraw = drawn
    for (const d of fresh) {
      this.emit(batch, { type: 'draw', data: d })
      this.published.draw++
    }
  }

  private publishRound(batch: Batch, st: GameState, round: Round): void {
    const key = `${round.round_id}:${round.state}`
    if (st.roundKey === key) return
    st.roundKey = key
    this.emit(batch, { type: 'round', data: round })
    this.published.round++
  }

  private async call<T>(endpoint: ReaderEndpoint, ask: () => Promise<T>): Promise<T> {
    this.calls[endpoint]++
    this.o.metrics?.upstreamReaderCalls.inc({ endpoint })
    try {
      return await ask()
    } catch (err) {
      this.o.metrics?.upstreamReaderFailures.inc({ endpoint, kind: 'failed' })
      throw err
    }
  }
}

function freshState(): GameState {
  return {
    timer: null,
    busy: false,
    round: null,
    roundKey: null,
    lastDraw: undefined,
    expect: null,
    notDrawnTries: 0,
    failures: 0,
  }
}
