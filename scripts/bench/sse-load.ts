import { Agent, type IncomingMessage, request } from 'node:http'
import { performance } from 'node:perf_hooks'
import { streamQuery, tokenOf } from './credential'
import { type DrawSeen, SseDrawReader } from './sse-draws'

/**
 * A load generator of bench-realtime.ts, run as a process of its own (forked with an IPC channel)
 * so that the clients' work never shares the server's event loop, nor the other generator's.
 *
 * - `open`: opens one `GET /api/stream` per token (a lean SSE reader on node:http, one socket
 *   each), answers once every stream has sent its first event (the snapshot).
 * - `collect`: the draws every stream received, as (draw_at, received at) pairs, then forgets them.
 * - `close`: ends every stream.
 * - `poll`: each token polls as the game page does without the stream (see Poller), for a while.
 *
 * Times are this machine's wall clock in ms (`performance.timeOrigin + performance.now()`), the
 * clock the emulator's `draw_at` comes from when its world clock runs in real time.
 */

export type LoadCommand =
  | { type: 'open'; base: string; tokens: string[] }
  | { type: 'collect' }
  | { type: 'close' }
  | {
      type: 'poll'
      base: string
      tokens: string[]
      game: string
      recordFrom: number
      recordUntil: number
    }

export type LoadReply =
  | { type: 'opened'; ok: number; failed: number; retried: number; firstError: string | null }
  | { type: 'collected'; draws: DrawSeen[] }
  | { type: 'closed' }
  | {
      type: 'polled'
      requests: number
      errors: number
      firstError: string | null
      latencies: number[]
      deliveries: DrawSeen[]
    }
  | { type: 'error'; message: string }

const now = (): number => performance.timeOrigin + performance.now()

/** Streams opened at once: more would overflow the server's accept backlog and wait on SYN retries. */
const OPEN_BATCH = 100
/** Tries to open one stream while the server answers 503 (busy). */
const OPEN_ATTEMPTS = 5

const streams = new Set<IncomingMessage>()
let seen: DrawSeen[] = []

function openStream(base: URL, credential: string): Promise<void> {
  const query = streamQuery(credential)
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: base.hostname,
        port: base.port,
        path: `/api/stream${query}`,
        headers: { token: tokenOf(credential), accept: 'text/event-stream' },
        agent: false,
      },
      (res) => {
        const type = String(res.headers['content-type'] ?? '')
        if (res.statusCode !== 200 || !type.startsWith('text/event-stream')) {
          let body = ''
          res.setEncoding('utf8')
          res.on('data', (d: string) => {
            body += d
          })
          res.on('end', () =>
            reject(new Error(`stream answered ${res.statusCode} ${type}: ${body.slice(0, 200)}`)),
          )
          return
        }
        streams.add(res)
        res.setEncoding('utf8')
        const reader = new SseDrawReader((draw) => seen.push(draw))
        let first = true
        res.on('data', (chunk: string) => {
          const at = now()
          if (reader.push(chunk, at) > 0 && first) {
            first = false
            resolve()
          }
        })
        res.on('close', () => {
          streams.delete(res)
          if (first) reject(new Error('stream closed before its first event'))
        })
        res.on('error', () => undefined)
      },
    )
    req.on('error', reject)
    req.end()
  })
}

async function open(baseUrl: string, tokens: string[]): Promise<LoadReply> {
  const base = new URL(baseUrl)
  let ok = 0
  let failed = 0
  let firstError: string | null = null
  let retried = 0
  for (let i = 0; i < tokens.length; i += OPEN_BATCH) {
    let batch = tokens.slice(i, i + OPEN_BATCH)
    for (let attempt = 1; batch.length > 0; attempt++) {
      const results = await Promise.allSettled(batch.map((t) => openStream(base, t)))
      const again: string[] = []
      for (const [k, r] of results.entries()) {
        if (r.status === 'fulfilled') ok++
        else {
          const message = r.reason instanceof Error ? r.reason.message : String(r.reason)
          // A server shedding load (503) is asked again, as the app reconnects after a pause.
          const token = batch[k]
          if (attempt < OPEN_ATTEMPTS && message.includes(' 503 ') && token) again.push(token)
          else {
            failed++
            firstError ??= message
          }
        }
      }
      retried += again.length
      batch = again
      if (batch.length > 0) await new Promise((r) => setTimeout(r, 1_000 * attempt))
    }
  }
  return { type: 'opened', ok, failed, retried, firstError }
}

function closeAll(): Promise<LoadReply> {
  const closing = [...streams].map(
    (res) =>
      new Promise<void>((resolve) => {
        res.once('close', () => resolve())
        res.destroy()
      }),
  )
  return Promise.all(closing).then(() => ({ type: 'closed' }) as const)
}

/** The app's poll period near the draw (client/src/features/games/countdown.ts, FAST_POLL_MS). */
const FAST_POLL_MS = 1_000
/** The game page re-renders its countdown this often; the fetch at zero comes on such a tick. */
const TICK_MS = 250
/** Draws the game page reads for its strip and streak board (game-page.tsx, STREAK_DRAWS). */
const STREAK_DRAWS = 50

interface RoundAnswer {
  data?: { draw_at?: number; ms_to_draw?: number; previous?: { round_id: string; draw_at: number } | null }
}

/**
 * One player's game page without the push channel, as client/src/features/games/use-round.ts
 * polls: the round again one second after each answer while the draw is under five seconds away
 * (always, for the block game's three-second rounds), and at once when the countdown reaches zero
 * (on one of the page's 250 ms ticks); when an answer shows a draw it has not shown, the results
 * (50 rows) are read again. One fetch of the round at a time, as the page's `inFlight` guard.
 */
class Poller {
  private lastDrawn: string | null | undefined = undefined
  private pollTimer: NodeJS.Timeout | undefined
  private drawTimer: NodeJS.Timeout | undefined
  private timedDraw = 0
  private inFlight = false
  private stopped = false
  private readonly phase = Math.random() * TICK_MS

  constructor(
    private readonly get: (
      path: string,
      token: string,
    ) => Promise<{ status: number; body: string; ms: number }>,
    private readonly token: string,
    private readonly game: string,
    private readonly record: Recorder,
  ) {}

  start(): void {
    this.pollTimer = setTimeout(() => void this.fetchRound(), Math.random() * FAST_POLL_MS)
  }

  stop(): void {
    this.stopped = true
    clearTimeout(this.pollTimer)
    clearTimeout(this.drawTimer)
  }

  private async fetchRound(): Promise<void> {
    if (this.inFlight || this.stopped) return
    this.inFlight = true
    clearTimeout(this.pollTimer)
    try {
      const answer = await this.call(`/api/games/round?game=${this.game}`)
      if (!answer || this.stopped) return
      const round = (JSON.parse(answer) as RoundAnswer).data
      const previous = round?.previous ?? null
      const drawn = previous?.round_id ?? null
      if (this.lastDrawn !== undefined && previous && drawn !== this.lastDrawn) {
        this.record.delivery({
          game: this.game,
          round: previous.round_id,
          drawAt: previous.draw_at,
          at: now(),
        })
        void this.call(`/api/games/results?game=${this.game}&page=1&page_size=${STREAK_DRAWS}`)
      }
      this.lastDrawn = drawn
      const drawAt = round?.draw_at ?? 0
      if (drawAt > this.timedDraw) {
        this.timedDraw = drawAt
        clearTimeout(this.drawTimer)
        const wait = Math.max(0, drawAt - now())
        // The countdown shows zero on the first tick at or after the draw time.
        this.drawTimer = setTimeout(() => void this.fetchRound(), wait + this.phase)
      }
    } finally {
      this.inFlight = false
      if (!this.stopped) this.pollTimer = setTimeout(() => void this.fetchRound(), FAST_POLL_MS)
    }
  }

  private async call(path: string): Promise<string | null> {
    try {
      const r = await this.get(path, this.token)
      this.record.request(r.ms, r.status === 200 ? null : `HTTP ${r.status}: ${r.body.slice(0, 120)}`)
      return r.status === 200 ? r.body : null
    } catch (err) {
      this.record.request(null, err instanceof Error ? err.message : String(err))
      return null
    }
  }
}

interface Recorder {
  request(ms: number | null, error: string | null): void
  delivery(d: DrawSeen): void
}

async function poll(cmd: Extract<LoadCommand, { type: 'poll' }>): Promise<LoadReply> {
  const base = new URL(cmd.base)
  const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY, maxFreeSockets: 100_000 })
  const get = (path: string, token: string) =>
    new Promise<{ status: number; body: string; ms: number }>((resolve, reject) => {
      const t0 = now()
      const req = request(
        { host: base.hostname, port: base.port, path, headers: { token }, agent },
        (res) => {
          let body = ''
          res.setEncoding('utf8')
          res.on('data', (d: string) => {
            body += d
          })
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body, ms: now() - t0 }))
          res.on('error', reject)
        },
      )
      req.on('error', reject)
      req.end()
    })
  const out = {
    requests: 0,
    errors: 0,
    firstError: null as string | null,
    latencies: [] as number[],
    deliveries: [] as DrawSeen[],
  }
  const recording = () => {
    const t = now()
    return t >= cmd.recordFrom && t < cmd.recordUntil
  }
  const recorder: Recorder = {
    request(ms, error) {
      if (!recording()) return
      out.requests++
      if (ms !== null && error === null) out.latencies.push(ms)
      else {
        out.errors++
        out.firstError ??= error
      }
    },
    delivery(d) {
      if (d.drawAt >= cmd.recordFrom && d.drawAt < cmd.recordUntil) out.deliveries.push(d)
    },
  }
  const pollers = cmd.tokens.map((t) => new Poller(get, tokenOf(t), cmd.game, recorder))
  for (const p of pollers) p.start()
  // Draws up to the end of the window are delivered a moment after it.
  await new Promise((r) => setTimeout(r, Math.max(0, cmd.recordUntil - now()) + 1_500))
  for (const p of pollers) p.stop()
  agent.destroy()
  return { type: 'polled', ...out }
}

async function handle(cmd: LoadCommand): Promise<LoadReply> {
  switch (cmd.type) {
    case 'open':
      return open(cmd.base, cmd.tokens)
    case 'collect': {
      const draws = seen
      seen = []
      return { type: 'collected', draws }
    }
    case 'close':
      return closeAll()
    case 'poll':
      return poll(cmd)
  }
}

process.on('message', (cmd: LoadCommand) => {
  handle(cmd).then(
    (reply) => process.send?.(reply),
    (err: unknown) =>
      process.send?.({ type: 'error', message: err instanceof Error ? err.message : String(err) }),
  )
})
process.on('disconnect', () => process.exit(0))
