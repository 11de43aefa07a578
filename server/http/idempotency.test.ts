import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CODE } from '@shared/envelope'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type Db, openDatabase } from '../db/database'
import { migrate } from '../db/migrations'
import { EmuClock } from '../emulator/clock'
import { ApiError } from './api-error'
import { ok } from './envelope'
import { installErrorHandler } from './error-handler'
import { fingerprintOf, IdempotencyStore } from './idempotency'

/**
 * Two stores on two connections to one database file stand for two server processes; each serves
 * a route whose work can be held open, so a replay arrives while the first call is still running.
 */

let dir: string
let clock: EmuClock
let dbs: Db[]
let app: FastifyInstance
let runs: number
let gate: Promise<void>
let open: () => void
/** Called when a held handler starts its work. */
let started: () => void = () => {}

/** How many times a replay paused to wait for a first call in the other process. */
let pauses: number

function node(db: Db) {
  return new IdempotencyStore(db, clock, {
    retentionMs: 60_000,
    sweepMs: 0,
    waitMs: 5_000,
    pollMs: 5,
    // Real time held still, so a replay waits as long as the first call runs; each pause is a turn
    // of the event loop, in which the first call goes on, and no real time.
    realNow: () => 0,
    sleep: async () => {
      pauses++
      await new Promise((resolve) => setImmediate(resolve))
    },
  })
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'idempotency-'))
  const path = join(dir, 'db.sqlite')
  dbs = [openDatabase(path), openDatabase(path)]
  migrate(dbs[0] as Db)
  ;(dbs[0] as Db).exec('CREATE TABLE scratch (amount INTEGER NOT NULL)')
  clock = new EmuClock()
  clock.freeze(1_000_000)
  runs = 0
  pauses = 0
  gate = Promise.resolve()
  const stores = dbs.map(node)
  app = Fastify()
  installErrorHandler(app)
  stores.forEach((store, i) => {
    app.post(`/n${i}`, async (request, reply) => {
      const body = request.body as { amount: number; fail?: 'refuse' | 'crash' }
      const key = String(request.headers['idempotency-key'])
      const player = Number(request.headers['x-player'] ?? 1)
      return store.run({ playerId: player, key, endpointId: 'pay', body }, reply, async () => {
        runs++
        started()
        await gate
        if (body.fail === 'refuse') throw new ApiError(CODE.failed, '余额不足')
        if (body.fail === 'crash') throw new Error('bug')
        return ok({ run: runs, amount: body.amount })
      })
    })
    // Atomic: a synchronous handler writing to the database.
    const db = dbs[i] as Db
    app.post(`/a${i}`, (request, reply) => {
      const body = request.body as { amount: number; fail?: 'refuse' | 'crash' | 'async' }
      const key = String(request.headers['idempotency-key'])
      return store.runAtomic({ playerId: 1, key, endpointId: 'pay', body }, reply, () => {
        runs++
        db.prepare('INSERT INTO scratch (amount) VALUES (?)').run(body.amount)
        if (body.fail === 'refuse') throw new ApiError(CODE.failed, '余额不足')
        if (body.fail === 'crash') throw new Error('bug')
        if (body.fail === 'async') return Promise.resolve(ok({ run: runs }))
        return ok({ run: runs, amount: body.amount })
      })
    })
  })
  await app.ready()
})

afterEach(async () => {
  await app.close()
  for (const db of dbs) db.close()
  rmSync(dir, { recursive: true, force: true })
})

const call = (node: number, key: string, body: Record<string, unknown>, player = 1) =>
  app.inject({
    method: 'POST',
    url: `/n${node}`,
    payload: body,
    headers: { 'idempotency-key': key, 'x-player': String(player) },
  })

const callAtomic = (node: number, key: string, body: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: `/a${node}`, payload: body, headers: { 'idempotency-key': key } })

const scratch = () =>
  (dbs[0] as Db).prepare('SELECT amount FROM scratch ORDER BY rowid').pluck().all() as number[]

describe('IdempotencyStore', () => {
  it('fingerprints bodies regardless of field order, and per endpoint', () => {
    expect(fingerprintOf('a', { x: 1, y: 2 })).toBe(fingerprintOf('a', { y: 2, x: 1 }))
    expect(fingerprintOf('a', { x: 1 })).not.toBe(fingerprintOf('a', { x: 2 }))
    expect(fingerprintOf('a', { x: 1 })).not.toBe(fingerprintOf('b', { x: 1 }))
  })

  it('a replay arriving at another process while the first runs waits and gets the same answer', async () => {
    gate = new Promise((resolve) => (open = resolve))
    const claimed = new Promise<void>((resolve) => (started = resolve))
    const first = call(0, 'k1', { amount: 5 })
    // Let the first claim the key (its handler is running) before the replays arrive.
    await claimed
    const replays = [call(1, 'k1', { amount: 5 }), call(0, 'k1', { amount: 5 }), call(1, 'k1', { amount: 5 })]
    // The replays reach their stores and find the key taken before the first is let go.
    while (pauses === 0) await new Promise((resolve) => setImmediate(resolve))
    open()
    const answers = await Promise.all([first, ...replays])
    expect(runs).toBe(1)
    for (const a of answers) expect(a.json()).toEqual({ code: 1, msg: '成功', data: { run: 1, amount: 5 } })
    expect(answers.slice(1).every((a) => a.headers['idempotent-replayed'] === 'true')).toBe(true)
  })

  it('stores a refusal and replays it; an unexpected failure stores nothing', async () => {
    const refused = await call(0, 'k2', { amount: 5, fail: 'refuse' })
    expect(refused.json()).toEqual({ code: 0, msg: '余额不足', data: null })
    expect((await call(1, 'k2', { amount: 5, fail: 'refuse' })).json()).toEqual(refused.json())
    expect(runs).toBe(1)
    const crashed = await call(0, 'k3', { amount: 5, fail: 'crash' })
    expect(crashed.statusCode).toBe(500)
    expect((await call(0, 'k3', { amount: 5 })).json()).toMatchObject({ code: 1, data: { run: 3 } })
  })

  it('refuses a different body under the same key, keeps keys per player, and forgets them after the retention', async () => {
    expect((await call(0, 'k4', { amount: 5 })).json().code).toBe(1)
    const other = await call(1, 'k4', { amount: 6 })
    expect(other.statusCode).toBe(422)
    expect(other.json()).toMatchObject({
      code: CODE.conflict,
      msg: expect.stringContaining('Idempotency-Key'),
    })
    expect((await call(0, 'k4', { amount: 6 }, 2)).json()).toMatchObject({ code: 1, data: { run: 2 } })
    clock.advance(60_001)
    expect((await call(0, 'k4', { amount: 6 })).json()).toMatchObject({ code: 1, data: { run: 3 } })
  })

  it('sweeps exactly the expired keys, oldest first, with no index kept for it', async () => {
    const db = dbs[0] as Db
    const keys = () =>
      db
        .prepare<[], { key: string }>('SELECT key FROM idempotency_keys ORDER BY id')
        .all()
        .map((r) => r.key)
    for (const key of ['s1', 's2', 's3']) {
      expect((await call(0, key, { amount: 1 })).json().code).toBe(1)
      clock.advance(25_000)
    }
    // s1 is 75 s old and s2 50 s (retention 60 s): the next call sweeps s1 alone.
    expect((await call(0, 's4', { amount: 1 })).json().code).toBe(1)
    expect(keys()).toEqual(['s2', 's3', 's4'])
    clock.advance(60_001)
    expect((await call(0, 's5', { amount: 1 })).json().code).toBe(1)
    expect(keys()).toEqual(['s5'])
    const indexes = db
      .prepare<[], { name: string }>("SELECT name FROM pragma_index_list('idempotency_keys')")
      .all()
      .map((r) => r.name)
    expect(indexes).toEqual(['idempotency_keys_player_key'])
  })

  it('atomic: the key, the writes and the answer commit together; replays elsewhere get the same answer', async () => {
    const first = await callAtomic(0, 'a1', { amount: 5 })
    expect(first.json()).toEqual({ code: 1, msg: '成功', data: { run: 1, amount: 5 } })
    const replay = await callAtomic(1, 'a1', { amount: 5 })
    expect(replay.json()).toEqual(first.json())
    expect(replay.headers['idempotent-replayed']).toBe('true')
    expect((await callAtomic(1, 'a1', { amount: 6 })).statusCode).toBe(422)
    expect(runs).toBe(1)
    expect(scratch()).toEqual([5])
  })

  it('atomic: a refusal is stored and its writes undone; an unexpected failure leaves nothing behind', async () => {
    const refused = await callAtomic(0, 'a2', { amount: 7, fail: 'refuse' })
    expect(refused.json()).toEqual({ code: 0, msg: '余额不足', data: null })
    expect((await callAtomic(1, 'a2', { amount: 7, fail: 'refuse' })).json()).toEqual(refused.json())
    expect(runs).toBe(1)
    expect(scratch()).toEqual([])

    expect((await callAtomic(0, 'a3', { amount: 8, fail: 'crash' })).statusCode).toBe(500)
    expect((await callAtomic(0, 'a3', { amount: 8, fail: 'async' })).statusCode).toBe(500)
    expect(scratch()).toEqual([])
    expect((await callAtomic(1, 'a3', { amount: 8 })).json()).toMatchObject({ code: 1, data: { run: 4 } })
    expect(scratch()).toEqual([8])
  })

  it('refuses a malformed key', async () => {
    const res = await call(0, 'x'.repeat(129), { amount: 5 })
    expect(res.json().code).toBe(CODE.invalidInput)
    expect(runs).toBe(0)
  })
})
