import { createServer, type Server } from 'node:http'
import type { DataOf } from '@shared/contract/endpoint'
import type { currentRound, drawResultSchema } from '@shared/contract/games'
import type { GameCode } from '@shared/games/config'
import type { z } from 'zod'
import type { ReaderTimers, RoundSource } from '../realtime/upstream-reader'

type Round = DataOf<typeof currentRound>
type DrawResult = z.infer<typeof drawResultSchema>

/**
 * A clock and timers the test moves by hand: `advance` fires every timer due on the way, in order,
 * and lets what each started finish (`settle`) before the next. No real time passes.
 */
export class VirtualTime {
  private queue: { id: number; at: number; fn: () => void }[] = []
  private seq = 0

  constructor(
    public now: number,
    /** What to wait for after each timer fires (its async work); by default the microtasks. */
    private readonly settle: () => Promise<void> = () => new Promise((resolve) => setImmediate(resolve)),
  ) {}

  readonly timers: ReaderTimers = {
    setTimeout: (fn, ms) => {
      const id = ++this.seq
      this.queue.push({ id, at: this.now + Math.max(0, ms), fn })
      return id
    },
    clearTimeout: (handle) => {
      this.queue = this.queue.filter((t) => t.id !== handle)
    },
  }

  private readonly extraWaits: (() => Promise<void>)[] = []

  /** Also waits for this after each timer (a reader's turns over real sockets: `whenIdle`). */
  waitAlsoFor(wait: () => Promise<void>): void {
    this.extraWaits.push(wait)
  }

  private async settled(): Promise<void> {
    await this.settle()
    for (const wait of this.extraWaits) await wait()
  }

  /** Timers set and not fired. */
  get pending(): number {
    return this.queue.length
  }

  async advance(ms: number): Promise<void> {
    await this.advanceTo(this.now + ms)
  }

  async advanceTo(end: number): Promise<void> {
    await this.settled()
    for (;;) {
      const due = this.queue.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0]
      if (!due) break
      this.queue = this.queue.filter((t) => t !== due)
      this.now = Math.max(this.now, due.at)
      due.fn()
      await this.settled()
    }
    this.now = Math.max(this.now, end)
  }
}

/** Round length and sealing of each game in the fake (the block game's 3 s, a minute for the others). */
const TIMING: Record<GameCode, { period: number; seal: number }> = {
  qukuai: { period: 3_000, seal: 1_000 },
  hassize: { period: 60_000, seal: 3_000 },
  kuaisan: { period: 60_000, seal: 3_000 },
  shishicai: { period: 60_000, seal: 3_000 },
  saiche: { period: 60_000, seal: 3_000 },
}

/**
 * An upstream's games on a clock: round k of a game draws at k × its period, and the upstream has
 * drawn it `lag` ms after that. It answers the reader's two questions (RoundSource) in the contract's
 * shapes and counts them; `failing` makes every question fail.
 */
export class FakeRoundUpstream implements RoundSource {
  readonly calls = { round: 0, results: 0 }
  readonly callsByGame: Partial<Record<GameCode, number>> = {}
  lag: number
  failing = false

  constructor(
    private readonly clock: { readonly now: number },
    opts: { lag?: number } = {},
  ) {
    this.lag = opts.lag ?? 0
  }

  /** The newest round drawn by now. */
  private drawnUpTo(game: GameCode): number {
    return Math.floor((this.clock.now - this.lag) / TIMING[game].period)
  }

  /** The round the upstream calls current now. */
  currentId(game: GameCode): number {
    return this.drawnUpTo(game) + 1
  }

  roundOf(game: GameCode, k: number) {
    const { period, seal } = TIMING[game]
    return { game, round_id: String(k), height: k, seal_at: k * period - seal, draw_at: k * period }
  }

  drawOf(game: GameCode, k: number): DrawResult {
    return {
      game,
      round_id: String(k),
      height: k,
      block_hash: k.toString(16).padStart(64, '0'),
      draw_at: k * TIMING[game].period,
      numbers: [k % 10, (k >> 1) % 10, (k >> 2) % 10],
      labels: { big_small: k % 2 === 0 ? 'big' : 'small' },
    }
  }

  async round(game: GameCode): Promise<Round> {
    this.calls.round++
    this.callsByGame[game] = (this.callsByGame[game] ?? 0) + 1
    if (this.failing) throw new Error('upstream down')
    return this.roundNow(game)
  }

  roundNow(game: GameCode): Round {
    const now = this.clock.now
    const k = this.currentId(game)
    const r = this.roundOf(game, k)
    return {
      ...r,
      server_time: now,
      ms_to_seal: Math.max(0, r.seal_at - now),
      ms_to_draw: r.draw_at - now,
      state: now >= r.seal_at ? 'SEALED' : 'OPEN',
      next: this.roundOf(game, k + 1),
      previous: k > 1 ? this.drawOf(game, k - 1) : null,
    }
  }

  async results(game: GameCode, count: number): Promise<DrawResult[]> {
    this.calls.results++
    if (this.failing) throw new Error('upstream down')
    return this.resultsNow(game, count)
  }

  resultsNow(game: GameCode, count: number): DrawResult[] {
    const k = this.drawnUpTo(game)
    const out: DrawResult[] = []
    for (let i = k; i > Math.max(0, k - count); i--) out.push(this.drawOf(game, i))
    return out
  }
}

/** A fake upstream over HTTP: what `serveRoundUpstream` answers and counts. */
export interface ServedUpstream {
  readonly url: string
  /** Requests by path (`/api/games/round`, `/api/users/info`…), since start. */
  readonly requests: Map<string, number>
  close(): Promise<void>
}

/** The token the served fake takes as a live session; any other is answered 10001. */
export const FAKE_TOKEN_PREFIX = 'live-'

/**
 * `FakeRoundUpstream` as an HTTP upstream for a proxy-mode server: the round and results endpoints,
 * user info (a token starting with {@link FAKE_TOKEN_PREFIX} is a live session of the player id
 * asked for), the announcements (the readiness probe); every request counted by path.
 */
export async function serveRoundUpstream(model: FakeRoundUpstream): Promise<ServedUpstream> {
  const requests = new Map<string, number>()
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://upstream')
    requests.set(url.pathname, (requests.get(url.pathname) ?? 0) + 1)
    const send = (body: unknown, status = 200) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(body))
    }
    const game = url.searchParams.get('game') as GameCode
    if (url.pathname === '/api/games/round') return send({ code: 1, msg: '成功', data: model.roundNow(game) })
    if (url.pathname === '/api/games/results') {
      const size = Number(url.searchParams.get('page_size') ?? 20)
      const list = model.resultsNow(game, size)
      return send({
        code: 1,
        msg: '成功',
        data: { list, page: 1, page_size: size, total: list.length, has_more: false },
      })
    }
    if (url.pathname === '/api/users/info') {
      const token = req.headers.token
      if (typeof token !== 'string' || !token.startsWith(FAKE_TOKEN_PREFIX))
        return send({ code: 10001, msg: '登录已失效!', data: null })
      const id = Number(url.searchParams.get('player_id'))
      return send({
        code: 1,
        msg: '成功',
        data: {
          player_id: id,
          nickname: `玩家${id}`,
          phone: '138****0000',
          invite_code: 'ABC123',
          has_pay_password: true,
          vip_level: 0,
          created_at: 0,
        },
      })
    }
    if (url.pathname === '/api/api2/announcement') return send({ code: 1, msg: '成功', data: { list: [] } })
    send({ code: 40400, msg: '接口不存在', data: null }, 404)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (!address || typeof address === 'string') throw new Error('no address')
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
