import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { buildApp } from '../server/app'
import { testConfig } from '../server/config'
import { immediate } from '../server/db/database'
import { EmuClock } from '../server/emulator/clock'
import { GAME_CODES } from '../shared/games/config'
import { freePort, pinLoadGenerator, serverEntry, start, stopAll, waitForHttp } from './bench/processes'

/**
 * Games benchmark (numbers, not tests):
 * (a) bets placed per second over HTTP (POST /api/games/bet, each with its own Idempotency-Key)
 *     against a plain Fastify route answering the same body, in the same run; then the ledger
 *     drift, which must be empty;
 * (b) settling 10,000 bets at one draw against 10,000 plain inserts in one transaction.
 * The servers run as their own processes; the load comes from this one. Keep runs short on a
 * shared machine: BENCH_SECONDS (default 5), BENCH_CONNECTIONS (default 16).
 */

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16)
const SETTLE_BETS = 10_000
const ROUNDS = 5
const TSX = ['--import', 'tsx']
const T0 = Date.UTC(2026, 10, 22, 4, 0, 0) + 500
const dir = mkdtempSync(join(tmpdir(), 'bench-games-'))

/** The shipped fixtures with room for a long run: a rich demo player and a high stake ceiling. */
function benchFixtures(): string {
  const fixtures = join(dir, 'fixtures')
  cpSync(join(import.meta.dirname, '..', 'fixtures'), fixtures, { recursive: true })
  const players = JSON.parse(readFileSync(join(fixtures, 'players.json'), 'utf8'))
  players.players[0].balance = '100000000'
  writeFileSync(join(fixtures, 'players.json'), JSON.stringify(players))
  const games = JSON.parse(readFileSync(join(fixtures, 'games.json'), 'utf8'))
  for (const g of GAME_CODES) games.games[g].limits.max_stake = '100000000'
  writeFileSync(join(fixtures, 'games.json'), JSON.stringify(games))
  return fixtures
}

interface Load {
  readonly url: string
  readonly opts: Partial<autocannon.Options>
  requests: number
  seconds: number
  bad: number
}

const load = (url: string, opts: Partial<autocannon.Options>): Load => ({
  url,
  opts,
  requests: 0,
  seconds: 0,
  bad: 0,
})
const rate = (l: Load) => l.requests / l.seconds

/**
 * Runs the loads in turns of one second each, DURATION_S turns, so that all of them see the same
 * share of a busy machine; a one-second warm-up each first.
 */
async function interleaved(loads: Load[]): Promise<void> {
  for (const l of loads) await autocannon({ url: l.url, connections: CONNECTIONS, ...l.opts, duration: 1 })
  for (let turn = 0; turn < DURATION_S; turn++) {
    for (const l of loads) {
      const r = await autocannon({ url: l.url, connections: CONNECTIONS, ...l.opts, duration: 1 })
      l.requests += r.requests.total
      l.seconds += r.duration
      l.bad += r.non2xx + r.errors + r.timeouts
    }
  }
}

async function placingBets(fixtures: string): Promise<void> {
  const [emuPort, basePort] = await Promise.all([freePort(), freePort()])
  const server = serverEntry()
  const layout = pinLoadGenerator()
  start(process.execPath, server, {
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(emuPort),
    DB_PATH: join(dir, 'emu.db'),
    FIXTURES_DIR: fixtures,
    GAME_CHAIN_LENGTH: '100000',
  })
  const emu = `http://127.0.0.1:${emuPort}`
  await waitForHttp(`${emu}/api/api2/announcement`)
  // Frozen clock, half a second into a coming minute (the chain starts when the server does): the
  // round stays open for the whole run.
  await fetch(`${emu}/__emu/clock`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ mode: 'frozen', at: Math.ceil(Date.now() / 60_000) * 60_000 + 60_500 }),
  })
  const form = new FormData()
  form.set('phone', '13800138000')
  form.set('password', 'demo1234')
  const login = (await (await fetch(`${emu}/api/login`, { method: 'POST', body: form })).json()) as {
    data: { token: string }
  }
  const { token } = login.data
  const round = (await (await fetch(`${emu}/api/games/round?game=kuaisan`)).json()) as {
    data: { round_id: string }
  }
  const body = JSON.stringify({
    game: 'kuaisan',
    round_id: round.data.round_id,
    bets: [{ bet_type: 'sum_9', amount: '1' }],
  })
  const headers = { token, 'content-type': 'application/json' }
  const sample = await (await fetch(`${emu}/api/games/bet`, { method: 'POST', headers, body })).text()
  if (!sample.startsWith('{"code":1,')) throw new Error(`placing a bet failed: ${sample}`)

  start(process.execPath, [...TSX, 'scripts/bench/plain-server.ts'], {
    PORT: String(basePort),
    BENCH_BODY: sample,
    BENCH_PATH: '/api/games/bet',
  })
  await waitForHttp(`http://127.0.0.1:${basePort}/`)

  let n = 0
  const baseline = load(`http://127.0.0.1:${basePort}/api/games/bet`, { method: 'POST', headers, body })
  const bets = load(`${emu}/api/games/bet`, {
    method: 'POST',
    headers,
    body,
    requests: [
      {
        setupRequest: (req) => ({
          ...req,
          headers: { ...req.headers, 'idempotency-key': `bench-${process.pid}-${n++}` },
        }),
      },
    ],
  })
  const unkeyed = load(`${emu}/api/games/bet`, { method: 'POST', headers, body })
  const balance = load(`${emu}/api/api/getBalance?player_id=1`, { headers: { token } })
  await interleaved([baseline, bets, unkeyed, balance])
  const drift = (await (await fetch(`${emu}/__emu/wallet/drift`)).json()) as { data: { drift: unknown[] } }
  const history = (await (
    await fetch(`${emu}/api/games/bets?game=kuaisan&page_size=1`, { headers: { token } })
  ).json()) as { data: { list: { stake: string }[] } }
  const ratio = rate(bets) / rate(baseline)
  const row = (name: string, r: Load) =>
    console.log(
      `    ${name.padEnd(44)} ${rate(r).toFixed(0).padStart(7)} req/s  ${(rate(r) / rate(baseline)).toFixed(2).padStart(5)}×  errors ${r.bad}`,
    )
  console.log(
    `\n(a) placing bets over HTTP, ${CONNECTIONS} connections, ${DURATION_S} turns of 1 s each, interleaved; ${layout}`,
  )
  row('plain Fastify, same body (baseline)', baseline)
  row('POST /api/games/bet, Idempotency-Key each', bets)
  row('POST /api/games/bet, no key', unkeyed)
  row('for scale: GET /api/api/getBalance', balance)
  console.log(
    `    bets with keys: ${ratio.toFixed(2)}× baseline (target ≥ 0.25×) ${ratio >= 0.25 ? 'OK' : 'BELOW TARGET'}`,
  )
  console.log(
    `    ledger drift afterwards: ${drift.data.drift.length === 0 ? 'none' : JSON.stringify(drift.data.drift)}`,
  )
  console.log(`    the one sum_9 bet now stands at ${history.data.list[0]?.stake ?? '?'} USDT`)
  stopAll()
}

/** Median of a list of timings (ms). */
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0

async function settling(fixtures: string): Promise<void> {
  let run = 0
  const settle = async (): Promise<number> => {
    run++
    const clock = new EmuClock()
    clock.freeze(T0)
    const config = testConfig({
      DB_PATH: join(dir, `settle-${run}.db`),
      FIXTURES_DIR: fixtures,
      GAME_CHAIN_LENGTH: '20000',
    })
    const app = await buildApp(config, clock)
    await app.ready()
    const games = app.emu.games
    const { db, ledger } = app.emu
    games.rounds.ensureChain()
    games.rounds.catchUp(T0)
    const round = games.rounds.current('kuaisan')
    const types = [
      'big',
      'odd',
      'sum_9',
      'pair_3',
      'two_2_5',
      'any_triple',
      'triple_6',
      'any_straight',
      'sum_12',
      'even',
    ]
    immediate(db, () => {
      for (let i = 0; i < SETTLE_BETS; i++) {
        const betType = types[i % types.length] ?? 'big'
        const { id } = games.repo.insertBet({
          playerId: 1,
          game: 'kuaisan',
          roundId: round.round_id,
          betType,
          stakeMicro: 1_000_000 + i,
          odds: '1.95',
          source: 'transfer',
          placedAt: T0,
          height: round.height,
          drawAt: round.draw_at,
        })
        ledger.post({
          playerId: 1,
          currency: 'USDT',
          type: 'bet',
          amountMicro: -(1_000_000 + i),
          ref: `bet:${id}`,
          at: T0,
        })
      }
    })
    // Both timings start from an empty WAL: the set-up's writes are flushed before, not during.
    // The other games' earlier rounds are drawn first: only what happens at this draw is timed.
    games.rounds.catchUp(round.draw_at - 1)
    db.pragma('wal_checkpoint(TRUNCATE)')
    const t = performance.now()
    games.rounds.catchUp(round.draw_at)
    const ms = performance.now() - t
    const pending = db.prepare(`SELECT COUNT(*) FROM bets WHERE status = 'pending'`).pluck().get()
    if (pending !== 0 || ledger.drift().length > 0) throw new Error('settlement left pending bets or drift')
    await app.close()
    return ms
  }
  const inserts = async (intoBets: boolean): Promise<number> => {
    run++
    const clock = new EmuClock()
    clock.freeze(T0)
    const config = testConfig({ DB_PATH: join(dir, `plain-${run}.db`), FIXTURES_DIR: fixtures })
    const app = await buildApp(config, clock)
    await app.ready()
    const { db } = app.emu
    // Into a bare table, or as real bet rows into the bets table with its indexes.
    const table = intoBets ? 'bets' : 'plain_bets'
    if (!intoBets)
      db.exec(`CREATE TABLE plain_bets (
      id INTEGER PRIMARY KEY, player_id INTEGER NOT NULL, game TEXT NOT NULL, round_id TEXT NOT NULL,
      bet_type TEXT NOT NULL, stake_micro INTEGER NOT NULL, odds TEXT NOT NULL, status TEXT NOT NULL,
      payout_micro INTEGER NOT NULL, source TEXT NOT NULL, placed_at INTEGER NOT NULL, settled_at INTEGER)`)
    const ins = db.prepare(
      `INSERT INTO ${table} (player_id, game, round_id, bet_type, stake_micro, odds, status, payout_micro, source, placed_at, settled_at)
       VALUES (1, 'kuaisan', '202611220721', 'big', ?, '1.95', 'won', ?, 'app', ?, ?)`,
    )
    db.pragma('wal_checkpoint(TRUNCATE)')
    const t = performance.now()
    immediate(db, () => {
      for (let i = 0; i < SETTLE_BETS; i++) ins.run(1_000_000 + i, 1_950_000 + i, T0, T0 + 60_000)
    })
    const ms = performance.now() - t
    await app.close()
    return ms
  }
  // Interleaved, so all see the same load on a shared machine.
  const bare: number[] = []
  const rows: number[] = []
  const settles: number[] = []
  for (let i = 0; i < ROUNDS; i++) {
    bare.push(await inserts(false))
    rows.push(await inserts(true))
    settles.push(await settle())
  }
  const settled = median(settles)
  const n = SETTLE_BETS.toLocaleString('en')
  console.log(`\n(b) one draw with ${n} bets (file database, WAL), median of ${ROUNDS}, interleaved`)
  console.log(
    `    ${`${n} plain inserts, one transaction, bare table`.padEnd(58)} ${median(bare).toFixed(1).padStart(7)} ms`,
  )
  console.log(
    `    ${`${n} plain inserts, one transaction, into bets`.padEnd(58)} ${median(rows).toFixed(1).padStart(7)} ms`,
  )
  console.log(
    `    ${'settling the draw (bets, ledger rows, draw row)'.padEnd(58)} ${settled.toFixed(1).padStart(7)} ms`,
  )
  for (const [what, base] of [
    ['a bare table', median(bare)],
    ['the bets table (same indexes)', median(rows)],
  ] as const) {
    const ratio = settled / base
    console.log(
      `    vs inserts into ${what}: ${ratio.toFixed(2)}× (target ≤ 3×) ${ratio <= 3 ? 'OK' : 'ABOVE TARGET'}`,
    )
  }
}

async function main(): Promise<void> {
  const fixtures = benchFixtures()
  try {
    await placingBets(fixtures)
    await settling(fixtures)
  } finally {
    stopAll()
    rmSync(dir, { recursive: true, force: true })
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err)
    process.exit(1)
  },
)
