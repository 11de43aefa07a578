import { type ChildProcess, fork } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { openDatabase } from '../server/db/database'
import { SessionRepository } from '../server/emulator/account/session-repository'
import { credential } from './bench/credential'
import { HeapProbe } from './bench/inspector'
import { cpuSeconds, metricSum, openFileLimit, quantile, rssBytes } from './bench/proc-stats'
import { freePort, pinLoadGenerator, serverEntry, start, stopAll, waitForHttp } from './bench/processes'
import type { DrawSeen } from './bench/sse-draws'
import type { LoadCommand, LoadReply } from './bench/sse-load'

/**
 * Push channel benchmark (docs/performance.md, "The push channel"; numbers, not tests).
 *
 * The server runs in emulator mode as its own process (as `npm start` runs it, see
 * scripts/bench/processes.ts); BENCH_LOADGENS processes (default 2) make the load, so the
 * clients' work shares neither the server's event loop nor each other's. Players come from a
 * fixture of BENCH players; each gets a session (see `sessions`). Then, for each size in
 * BENCH_SIZES (default 1000,5000):
 *
 * - **stream**: that many `GET /api/stream` connections, then BENCH_SECONDS (default 15) of the block
 *   game's draws (one every 3 s of the emulator's world clock, left in real time so `draw_at` is
 *   this machine's clock): the time from each draw's `draw_at` to its arrival at each client,
 *   server CPU (from /proc), resident memory and JS heap per connection;
 * - **polling**: the same players' game pages without the stream, polling as the page does
 *   (sse-load.ts, Poller): requests a second into the server and their latency, the time from a
 *   draw to the answer that first shows it, server CPU.
 *
 * Printed side by side, with ratios against polling and the targets. Then two sections that run
 * only where the server supports them and print "not available" otherwise: (a) proxy mode serving
 * the stream (upstream calls per draw at 10, 1,000 and 5,000 players); (b) three proxy-mode
 * processes sharing a hub through Redis (REDIS_URL).
 *
 *   npm run bench:realtime
 *   BENCH_SIZES=50,200 BENCH_SECONDS=6 npm run bench:realtime     # a quick look while developing
 *
 * Options (environment): BENCH_SIZES, BENCH_SECONDS, BENCH_LOADGENS, BENCH_PROXY_SIZES (default
 * 10,1000,5000), BENCH_SECTIONS (default "stream,proxy,redis"), BENCH_LOGIN=api (log every player
 * in through POST /api/login instead of writing the sessions: about 15 ms of server CPU each),
 * SERVER_ENTRY, BENCH_PIN (see processes.ts).
 */

const ROOT = resolve(import.meta.dirname, '..')
const SIZES = listOf(process.env.BENCH_SIZES ?? '1000,5000')
const PROXY_SIZES = listOf(process.env.BENCH_PROXY_SIZES ?? '10,1000,5000')
const WINDOW_MS = Number(process.env.BENCH_SECONDS ?? 15) * 1000
const LOADGENS = Math.max(1, Number(process.env.BENCH_LOADGENS ?? 2))
const SECTIONS = new Set((process.env.BENCH_SECTIONS ?? 'stream,proxy,redis').split(','))
const GAME = 'qukuai'
const PASSWORD = 'bench1234'
/** Room for the server's own files (database, listening sockets, the metrics port, upstream pool). */
const FD_HEADROOM = 512
const SETTLE_MS = 2_000

const TARGET_P99_MS = 150
/** The same across three processes with Redis. */
const TARGET_P99_REDIS_MS = 250
const TARGET_KB_PER_CONNECTION = 30

const dir = mkdtempSync(join(tmpdir(), 'bench-realtime-'))

function listOf(text: string): number[] {
  return text
    .split(',')
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isInteger(n) && n > 0)
    .sort((a, b) => a - b)
}

/** The shipped fixtures plus `count` bench players (one password: the seeder hashes it once). */
function benchFixtures(count: number): string {
  const fixtures = join(dir, 'fixtures')
  cpSync(join(ROOT, 'fixtures'), fixtures, { recursive: true })
  const file = join(fixtures, 'players.json')
  const players = JSON.parse(readFileSync(file, 'utf8')) as { players: unknown[] }
  for (let i = 0; i < count; i++)
    players.players.push({
      phone: benchPhone(i),
      password: PASSWORD,
      nickname: `压测${i}`,
      invite_code: `BN${String(i).padStart(6, '0')}`,
      balance: '100',
    })
  writeFileSync(file, JSON.stringify(players))
  return fixtures
}

const benchPhone = (i: number) => `137${String(i).padStart(8, '0')}`

/**
 * One session per bench player. By default written into the emulator's database by its own
 * SessionRepository, exactly as a login writes it, without the password check: 5,000 argon2
 * verifications would take over a minute of the server's CPU before anything is measured.
 * BENCH_LOGIN=api logs each in through POST /api/login instead.
 */
async function sessions(base: string, dbPath: string, count: number): Promise<string[]> {
  // Each player's credential: its token and player id (see credential in ./bench/sse-load.ts).
  if (process.env.BENCH_LOGIN === 'api') {
    const tokens: string[] = []
    for (let i = 0; i < count; i += 8) {
      const batch = Array.from({ length: Math.min(8, count - i) }, (_, k) => i + k)
      tokens.push(
        ...(await Promise.all(
          batch.map(async (n) => {
            const form = new FormData()
            form.set('phone', benchPhone(n))
            form.set('password', PASSWORD)
            const r = (await (await fetch(`${base}/api/login`, { method: 'POST', body: form })).json()) as {
              code: number
              msg: string
              data: { token: string; player_id: number }
            }
            if (r.code !== 1) throw new Error(`login ${benchPhone(n)}: ${r.code} ${r.msg}`)
            return credential(r.data.token, r.data.player_id)
          }),
        )),
      )
    }
    return tokens
  }
  const db = openDatabase(dbPath)
  try {
    const repo = new SessionRepository(db)
    const byPhone = db.prepare<[string], { id: number }>('SELECT id FROM players WHERE phone = ?')
    const week = 7 * 24 * 3600 * 1000
    return db.transaction(() =>
      Array.from({ length: count }, (_, i) => {
        const row = byPhone.get(benchPhone(i))
        if (!row) throw new Error(`bench player ${benchPhone(i)} was not seeded`)
        return credential(repo.create(row.id, Date.now(), week).token, row.id)
      }),
    )()
  } finally {
    db.close()
  }
}

/** A load generator process and a way to ask it one thing at a time. */
class LoadGen {
  private readonly child: ChildProcess
  private pending: ((reply: LoadReply) => void) | null = null

  constructor() {
    this.child = fork(join(ROOT, 'scripts/bench/sse-load.ts'), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    })
    this.child.on('message', (reply: LoadReply) => {
      const p = this.pending
      this.pending = null
      p?.(reply)
    })
  }

  ask<T extends LoadReply['type']>(cmd: LoadCommand, expect: T): Promise<Extract<LoadReply, { type: T }>> {
    if (this.pending) throw new Error('one command at a time')
    return new Promise((resolvePromise, reject) => {
      this.pending = (reply) => {
        if (reply.type === expect) resolvePromise(reply as Extract<LoadReply, { type: T }>)
        else reject(new Error(reply.type === 'error' ? reply.message : `unexpected ${reply.type}`))
      }
      this.child.send(cmd)
    })
  }

  stop(): void {
    if (this.child.connected) this.child.disconnect()
  }
}

/** Splits items into n nearly equal parts, in order. */
function split<T>(items: readonly T[], n: number): T[][] {
  const parts: T[][] = Array.from({ length: n }, () => [])
  for (const [i, item] of items.entries()) parts[i % n]?.push(item)
  return parts
}

interface Server {
  readonly name: string
  readonly base: string
  readonly metrics: string
  readonly pid: number
  /** Its live heap, when started with `inspect`. */
  readonly heap: HeapProbe | null
}

async function startServer(
  name: string,
  entry: string[],
  env: Record<string, string>,
  inspect = false,
): Promise<Server> {
  const [port, metricsPort, inspectPort] = await Promise.all([freePort(), freePort(), freePort()])
  const args = inspect ? [`--inspect=127.0.0.1:${inspectPort}`, ...entry] : entry
  const child = start(process.execPath, args, {
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(port),
    METRICS_PORT: String(metricsPort),
    SHUTDOWN_DRAIN_MS: '0',
    ...env,
  })
  const base = `http://127.0.0.1:${port}`
  await waitForHttp(`${base}/api/api2/announcement`)
  if (child.pid === undefined) throw new Error(`${name} has no process id`)
  const heap = inspect ? await HeapProbe.connect(inspectPort) : null
  return { name, base, metrics: `http://127.0.0.1:${metricsPort}/metrics`, pid: child.pid, heap }
}

const scrape = async (s: Server): Promise<string> => (await fetch(s.metrics)).text()

interface Memory {
  rss: number
  heap: number
}
/** Live heap after a full collection (through the inspector), then resident memory. */
const memoryOf = async (s: Server): Promise<Memory> => {
  const heap = s.heap ? await s.heap.liveHeap() : Number.NaN
  return { heap, rss: rssBytes(s.pid) }
}

/** CPU seconds of the servers over a window that ends when `during` does, as a share of one core. */
async function cpuOver(pids: readonly number[], during: () => Promise<void>): Promise<number> {
  const cpu0 = pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0)
  const t0 = performance.now()
  await during()
  const cpu1 = pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0)
  return (cpu1 - cpu0) / ((performance.now() - t0) / 1000)
}

interface StreamRow {
  size: number
  opened: number
  p50: number
  p99: number
  delivered: number
  expected: number
  cpu: number
  /** Server CPU ms per block-game draw, everything in the window counted (rounds, heartbeats). */
  cpuPerDraw: number
  rssPerConn: number
  heapPerConn: number
  rssMb: number
}

interface PollRow {
  size: number
  rps: number
  reqP50: number
  reqP99: number
  errors: number
  firstError: string | null
  p50: number
  p99: number
  cpu: number
  cpuPerDraw: number
  rssMb: number
}

/** Opens streams until `gens` hold `size` in all, tokens[open..size) spread over them. */
async function openStreams(gens: LoadGen[], base: string, tokens: string[]): Promise<number> {
  const parts = split(tokens, gens.length)
  const replies = await Promise.all(
    gens.map((g, i) => g.ask({ type: 'open', base, tokens: parts[i] ?? [] }, 'opened')),
  )
  const failed = replies.reduce((n, r) => n + r.failed, 0)
  const retried = replies.reduce((n, r) => n + r.retried, 0)
  const firstError = replies.find((r) => r.firstError)?.firstError
  if (retried > 0) console.log(`  ${retried} stream openings were refused as busy (503) and tried again`)
  if (failed > 0) console.log(`  ${failed} streams failed to open: ${firstError}`)
  return replies.reduce((n, r) => n + r.ok, 0)
}

async function collect(gens: LoadGen[]): Promise<DrawSeen[]> {
  const replies = await Promise.all(gens.map((g) => g.ask({ type: 'collect' }, 'collected')))
  return replies.flatMap((r) => r.draws)
}

async function closeStreams(gens: LoadGen[]): Promise<void> {
  await Promise.all(gens.map((g) => g.ask({ type: 'close' }, 'closed')))
}

/** p50/p99 per game, to tell the block game's draws from the minute games' (all four at the minute). */
function byGame(draws: readonly DrawSeen[]): string {
  const games = [...new Set(draws.map((d) => d.game))].sort()
  return games
    .map((g) => {
      const l = draws.filter((d) => d.game === g).map((d) => d.at - d.drawAt)
      return `${g} ${ms(quantile(l, 0.5))}/${ms(quantile(l, 0.99))} (${l.length})`
    })
    .join(', ')
}

/** Draw deliveries in a window: their latencies and how many distinct draws they were of. */
function deliveriesIn(draws: readonly DrawSeen[], from: number, until: number) {
  const inWindow = draws.filter((d) => d.drawAt >= from && d.drawAt < until)
  return {
    latencies: inWindow.map((d) => d.at - d.drawAt),
    rounds: new Set(inWindow.map((d) => `${d.game} ${d.round}`)).size,
    blockDraws: new Set(inWindow.filter((d) => d.game === GAME).map((d) => d.round)).size,
    byGame: byGame(inWindow),
  }
}

/** A stream window: `connections` open, BENCH_SECONDS of draws measured. */
async function streamWindow(gens: LoadGen[], servers: Server[]) {
  await collect(gens)
  const from = Date.now()
  const cpu = await cpuOver(
    servers.map((s) => s.pid),
    () => sleep(WINDOW_MS),
  )
  const until = Date.now()
  await sleep(1_500)
  return { cpu, ...deliveriesIn(await collect(gens), from, until) }
}

async function streamRows(
  server: Server,
  gens: LoadGen[],
  tokens: string[],
  sizes: number[],
): Promise<StreamRow[]> {
  const before = await memoryOf(server)
  const rows: StreamRow[] = []
  let open = 0
  for (const size of sizes) {
    open += await openStreams(gens, server.base, tokens.slice(open, size))
    await sleep(SETTLE_MS)
    const gauge = metricSum(await scrape(server), 'stream_connections')
    const mem = await memoryOf(server)
    const w = await streamWindow(gens, [server])
    rows.push({
      size,
      opened: gauge ?? open,
      p50: quantile(w.latencies, 0.5),
      p99: quantile(w.latencies, 0.99),
      delivered: w.latencies.length,
      expected: w.rounds * open,
      cpu: w.cpu,
      cpuPerDraw: perDraw(w.cpu, w.blockDraws),
      rssPerConn: (mem.rss - before.rss) / open,
      heapPerConn: (mem.heap - before.heap) / open,
      rssMb: mem.rss / 2 ** 20,
    })
    console.log(`  ${size} streams: draw → client p50/p99 by game: ${w.byGame}`)
  }
  await closeStreams(gens)
  return rows
}

async function pollRows(
  server: Server,
  gens: LoadGen[],
  tokens: string[],
  sizes: number[],
): Promise<PollRow[]> {
  const rows: PollRow[] = []
  for (const size of sizes) {
    const parts = split(tokens.slice(0, size), gens.length)
    const recordFrom = Date.now() + 3_000
    const recordUntil = recordFrom + WINDOW_MS
    const running = Promise.all(
      gens.map((g, i) =>
        g.ask(
          { type: 'poll', base: server.base, tokens: parts[i] ?? [], game: GAME, recordFrom, recordUntil },
          'polled',
        ),
      ),
    )
    await sleep(recordFrom - Date.now())
    const cpu = await cpuOver([server.pid], () => sleep(recordUntil - Date.now()))
    const rssMb = rssBytes(server.pid) / 2 ** 20
    const replies = await running
    const latencies = replies.flatMap((r) => r.latencies)
    const seen = replies.flatMap((r) => r.deliveries)
    const deliveries = seen.map((d) => d.at - d.drawAt)
    rows.push({
      size,
      rps: replies.reduce((n, r) => n + r.requests, 0) / (WINDOW_MS / 1000),
      reqP50: quantile(latencies, 0.5),
      reqP99: quantile(latencies, 0.99),
      errors: replies.reduce((n, r) => n + r.errors, 0),
      firstError: replies.find((r) => r.firstError)?.firstError ?? null,
      p50: quantile(deliveries, 0.5),
      p99: quantile(deliveries, 0.99),
      cpu,
      cpuPerDraw: perDraw(cpu, new Set(seen.map((d) => d.round)).size),
      rssMb,
    })
    console.log(
      `  ${size} polling: ${rows.at(-1)?.rps.toFixed(0)} req/s; draw → client p50/p99: ${byGame(seen)}`,
    )
    // Let the pollers' last answers and sockets go before the next size.
    await sleep(SETTLE_MS)
  }
  return rows
}

/** CPU ms per draw over a window of WINDOW_MS with `cpu` of a core busy. */
const perDraw = (cpu: number, draws: number) => (draws > 0 ? (cpu * WINDOW_MS) / draws : Number.NaN)

const ms = (v: number) => (Number.isFinite(v) ? `${v.toFixed(v < 10 ? 1 : 0)} ms` : '—')
const kb = (v: number) => (Number.isFinite(v) ? `${(v / 1024).toFixed(1)} KB` : '—')
const pct = (v: number) => `${(v * 100).toFixed(0)} %`
const ratio = (a: number, b: number) =>
  Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toFixed(2)}×` : '—'

function printComparison(streams: StreamRow[], polls: PollRow[]): void {
  const cols: string[][] = [
    [
      'players',
      'requests/s into the server',
      'request latency p50',
      'request latency p99',
      'failed requests',
      'draw → client p50',
      'draw → client p99',
      'draws delivered',
      'server CPU (one core = 100 %)',
      'server CPU per block-game draw',
      'server RSS',
      'RSS per connection',
      'JS heap per connection',
    ],
  ]
  for (const s of streams) {
    const p = polls.find((x) => x.size === s.size)
    cols.push([
      `${s.size} stream`,
      '0',
      '—',
      '—',
      '0',
      ms(s.p50),
      ms(s.p99),
      `${s.delivered}/${s.expected}`,
      pct(s.cpu),
      ms(s.cpuPerDraw),
      `${s.rssMb.toFixed(0)} MB`,
      kb(s.rssPerConn),
      kb(s.heapPerConn),
    ])
    if (!p) continue
    cols.push([
      `${p.size} polling`,
      p.rps.toFixed(0),
      ms(p.reqP50),
      ms(p.reqP99),
      String(p.errors),
      ms(p.p50),
      ms(p.p99),
      '',
      pct(p.cpu),
      ms(p.cpuPerDraw),
      `${p.rssMb.toFixed(0)} MB`,
      '',
      '',
    ])
    cols.push([
      'stream ÷ polling',
      '0×',
      '',
      '',
      '',
      ratio(s.p50, p.p50),
      ratio(s.p99, p.p99),
      '',
      ratio(s.cpu, p.cpu),
      ratio(s.cpuPerDraw, p.cpuPerDraw),
      ratio(s.rssMb, p.rssMb),
      '',
      '',
    ])
  }
  const widths = cols.map((c) => Math.max(...c.map((x) => x.length)))
  const rows = cols[0]?.length ?? 0
  for (let r = 0; r < rows; r++) {
    const line = cols.map((c, i) =>
      i === 0 ? (c[r] ?? '').padEnd(widths[i] ?? 0) : (c[r] ?? '').padStart(widths[i] ?? 0),
    )
    console.log(line.join('   '))
    if (r === 0) console.log(widths.map((w) => '-'.repeat(w)).join('   '))
  }
  for (const p of polls) if (p.firstError) console.log(`polling ${p.size}: first failure: ${p.firstError}`)
  console.log()
  const last = streams.at(-1)
  if (last) {
    const okP99 = last.p99 <= TARGET_P99_MS
    console.log(
      `target: draw → client p99 ≤ ${TARGET_P99_MS} ms at 5,000 streams on one process: ${ms(last.p99)} at ${last.size} ${okP99 ? 'OK' : 'ABOVE TARGET'}${last.size < 5000 ? ' (fewer than 5,000 measured)' : ''}`,
    )
    const perConn = Math.max(last.rssPerConn, last.heapPerConn)
    console.log(
      `target: ≤ ${TARGET_KB_PER_CONNECTION} KB of server memory per connection: RSS ${kb(last.rssPerConn)}, heap ${kb(last.heapPerConn)} at ${last.size} ${perConn <= TARGET_KB_PER_CONNECTION * 1024 ? 'OK' : 'ABOVE TARGET'}`,
    )
  }
}

/** Whether a server answers /api/stream with a stream (proxy mode did not at first: 404, code 40400). */
async function servesStream(gen: LoadGen, base: string, token: string): Promise<string | null> {
  const r = await gen.ask({ type: 'open', base, tokens: [token] }, 'opened')
  await gen.ask({ type: 'close' }, 'closed')
  return r.ok === 1 ? null : (r.firstError ?? 'no stream')
}

/** (a) Proxy mode: how many calls reach the upstream per draw as players are added. */
async function proxySection(emu: Server, entry: string[], gens: LoadGen[], tokens: string[]): Promise<void> {
  console.log('\n(a) proxy mode: upstream calls per draw')
  const proxy = await startServer('proxy', entry, { MODE: 'proxy', UPSTREAM_URL: emu.base })
  const [first] = gens
  const token = tokens[0]
  if (!first || !token) return
  const refused = await servesStream(first, proxy.base, token)
  if (refused) {
    console.log(`  not available: proxy mode does not serve /api/stream (${refused.slice(0, 120)})`)
    return
  }
  const sizes = PROXY_SIZES.filter((n) => n <= tokens.length)
  console.log(
    '  players   upstream calls/draw   reader calls/draw   draws   draw → client p50   p99   proxy CPU   upstream CPU',
  )
  let open = 0
  for (const size of sizes) {
    open += await openStreams(gens, proxy.base, tokens.slice(open, size))
    await sleep(SETTLE_MS)
    const calls0 = metricSum(await scrape(emu), 'http_request_duration_seconds_count') ?? Number.NaN
    const reader0 = metricSum(await scrape(proxy), 'upstream_reader_calls_total')
    const upstreamCpu0 = cpuSeconds(emu.pid)
    const w = await streamWindow(gens, [proxy])
    const upstreamCpu = (cpuSeconds(emu.pid) - upstreamCpu0) / ((WINDOW_MS + 1_500) / 1000)
    const calls1 = metricSum(await scrape(emu), 'http_request_duration_seconds_count') ?? Number.NaN
    const reader1 = metricSum(await scrape(proxy), 'upstream_reader_calls_total')
    // The two scrapes of the upstream's metrics are on its metrics port, not counted by it.
    const draws = Math.max(1, w.rounds)
    const readerPerDraw =
      reader0 !== null && reader1 !== null ? ((reader1 - reader0) / draws).toFixed(2) : 'no metric'
    console.log(
      `  ${String(size).padStart(7)}   ${((calls1 - calls0) / draws).toFixed(2).padStart(19)}   ${readerPerDraw.padStart(17)}   ${String(w.rounds).padStart(5)}   ${ms(quantile(w.latencies, 0.5)).padStart(17)}   ${ms(quantile(w.latencies, 0.99)).padStart(6)}   ${pct(w.cpu).padStart(9)}   ${pct(upstreamCpu).padStart(12)}`,
    )
  }
  await closeStreams(gens)
  console.log(
    '  (upstream calls: every request the emulator answered during the window, per draw seen by the clients)',
  )
}

/** (b) Three proxy-mode processes sharing the hub through Redis, client connections round-robin. */
async function redisSection(emu: Server, entry: string[], gens: LoadGen[], tokens: string[]): Promise<void> {
  console.log('\n(b) three processes with Redis (REDIS_URL)')
  const bundle = entry[0] ? readFileSync(entry[0], 'utf8') : ''
  if (!bundle.includes('REDIS_URL')) {
    console.log('  not available: this server has no REDIS_URL setting')
    return
  }
  const redisBin = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((p) => existsSync(p))
  if (!redisBin) {
    console.log('  not available: redis-server is not installed (apt-get install redis-server)')
    return
  }
  const redisPort = await freePort()
  start(
    redisBin,
    ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {},
  )
  const redisUrl = `redis://127.0.0.1:${redisPort}`
  await sleep(500)
  const env = { MODE: 'proxy', UPSTREAM_URL: emu.base, REDIS_URL: redisUrl }
  const servers = await Promise.all([1, 2, 3].map((n) => startServer(`proxy ${n}`, entry, env)))
  const [first] = gens
  const [s1] = servers
  const token = tokens[0]
  if (!first || !s1 || !token) return
  const refused = await servesStream(first, s1.base, token)
  if (refused) {
    console.log(`  not available: proxy mode does not serve /api/stream (${refused.slice(0, 120)})`)
    return
  }
  const size = Math.max(...SIZES.filter((n) => n <= tokens.length))
  // Round-robin: connection i goes to server i mod 3, split over the load generators.
  const byServer = split(tokens.slice(0, size), servers.length)
  for (const [i, s] of servers.entries()) await openStreams(gens, s.base, byServer[i] ?? [])
  await sleep(SETTLE_MS)
  const w = await streamWindow(gens, servers)
  await closeStreams(gens)
  console.log(`  draw → client p50/p99 by game: ${w.byGame}`)
  console.log(
    `  ${size} players over 3 processes: draw → client p50 ${ms(quantile(w.latencies, 0.5))}, p99 ${ms(quantile(w.latencies, 0.99))} (target p99 ≤ ${TARGET_P99_REDIS_MS} ms); ${w.latencies.length} deliveries of ${w.rounds} draws; the three processes' CPU together ${pct(w.cpu)}`,
  )
}

async function main(): Promise<void> {
  const limit = openFileLimit()
  const fits = (n: number) => n + FD_HEADROOM <= limit
  const sizes = SIZES.filter(fits)
  console.log(`open-file limit (ulimit -n): ${limit}`)
  if (sizes.length < SIZES.length) {
    const need = Math.max(...SIZES) + FD_HEADROOM
    console.log(
      `  TOO LOW for ${SIZES.filter((n) => !fits(n)).join(', ')} connections: the server holds one file per connection. ` +
        `Raise it in the shell first (\`ulimit -n ${Math.max(need, 65536)}\`; the hard limit, \`ulimit -Hn\`, bounds it) and run again. ` +
        `Measuring ${sizes.join(', ') || 'nothing'} only.`,
    )
  }
  if (sizes.length === 0) return
  const players = Math.max(...sizes, ...PROXY_SIZES.filter(fits))

  const entry = serverEntry()
  const layout = pinLoadGenerator()
  const dbPath = join(dir, 'emu.db')
  const emu = await startServer(
    'emulator',
    entry,
    {
      DB_PATH: dbPath,
      FIXTURES_DIR: benchFixtures(players),
      RATE_LIMIT_LOGIN: '1000000',
    },
    true,
  )
  // The games' chain is made on first use; the round timer then draws on time.
  await fetch(`${emu.base}/api/games/round?game=${GAME}`)
  const tokens = await sessions(emu.base, dbPath, players)
  const gens = Array.from({ length: LOADGENS }, () => new LoadGen())
  try {
    console.log(
      `\npush channel vs polling, block game (a draw every 3 s), ${WINDOW_MS / 1000} s windows; ${layout}; ` +
        `${LOADGENS} load generator processes; server in emulator mode with METRICS_PORT set and its inspector open (heap read after a full collection)\n`,
    )
    if (SECTIONS.has('stream')) {
      const streams = await streamRows(emu, gens, tokens, sizes)
      await sleep(SETTLE_MS)
      const polls = await pollRows(emu, gens, tokens, sizes)
      console.log()
      printComparison(streams, polls)
    }
    if (SECTIONS.has('proxy')) await proxySection(emu, entry, gens, tokens)
    if (SECTIONS.has('redis')) await redisSection(emu, entry, gens, tokens)
  } finally {
    await emu.heap?.close()
    for (const g of gens) g.stop()
  }
}

main()
  .catch((err: unknown) => {
    console.error(err)
    process.exitCode = 1
  })
  .finally(() => {
    stopAll()
    // A server that has not ended a few seconds after SIGTERM is not waited for.
    setTimeout(() => stopAll('SIGKILL'), 5_000).unref()
    rmSync(dir, { recursive: true, force: true })
  })
