import { hash } from 'node:crypto'
import { CODE } from '@shared/envelope'
import type { FastifyReply } from 'fastify'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type Db, immediate, openDatabase } from '../db/database'
import { migrate } from '../db/migrations'
import { EmuClock } from '../emulator/clock'
import { ApiError } from './api-error'
import { ok } from './envelope'
import {
  fingerprintOf,
  IDEMPOTENCY_DEFAULTS,
  IDEMPOTENCY_MSG,
  IdempotencyStore,
  REPLAYED_HEADER,
  recordAnswer,
} from './idempotency'

/**
 * The idempotency store on its own, against an in-memory database and a reply that records what
 * is set on it; the world clock is frozen and moved by the test, and the wait for another
 * process's first call runs on a real time the test holds, each pause moving it on at once.
 */

const T0 = 1_700_000_000_000

function fakeReply() {
  const sent = { status: 200, headers: {} as Record<string, string>, type: '' }
  const reply = {
    code(status: number) {
      sent.status = status
      return reply
    },
    header(name: string, value: string) {
      sent.headers[name] = value
      return reply
    },
    type(type: string) {
      sent.type = type
      return reply
    },
  }
  return { reply: reply as unknown as FastifyReply, sent }
}

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => (e instanceof ApiError ? { code: e.code, msg: e.message, status: e.statusCode } : e),
  )

describe('fingerprints', () => {
  it('hash the endpoint and the body as JSON with sorted keys, in this exact form', () => {
    const body = { b: [1, { d: null, c: 'x' }], a: true, skipped: undefined }
    expect(fingerprintOf('pay', body)).toBe(
      hash('sha256', 'pay\n{"a":true,"b":[1,{"c":"x","d":null}]}', 'hex'),
    )
    expect(fingerprintOf('pay', undefined)).toBe(hash('sha256', 'pay\nnull', 'hex'))
    expect(fingerprintOf('pay', [])).toBe(hash('sha256', 'pay\n[]', 'hex'))
    expect(fingerprintOf('pay', {})).toBe(hash('sha256', 'pay\n{}', 'hex'))
    expect(fingerprintOf('pay', { a: undefined, b: 1 })).toBe(hash('sha256', 'pay\n{"b":1}', 'hex'))
    // As JSON.stringify writes them: undefined in an array is null.
    expect(fingerprintOf('pay', [1, undefined])).toBe(hash('sha256', 'pay\n[1,null]', 'hex'))
  })

  it('tell apart bodies that differ in order inside an array', () => {
    expect(fingerprintOf('pay', [1, 2])).not.toBe(fingerprintOf('pay', [2, 1]))
  })
})

describe('IdempotencyStore', () => {
  let db: Db
  let clock: EmuClock
  let store: IdempotencyStore
  let runs: number
  /** The real time the wait for another process is measured on, held here. */
  let realMs: number
  /** Each pause the wait took, in order. */
  let pauses: number[]
  /** What the other process does at a pause, once the held time has moved on by it. */
  let atPause: (realMs: number) => void

  const rows = () =>
    db
      .prepare(
        'SELECT player_id, key, state, status_code, response, endpoint FROM idempotency_keys ORDER BY id',
      )
      .all()
  const call = (key: string, body: unknown = { amount: 5 }, playerId: number | null = 1) => ({
    playerId,
    key,
    endpointId: 'pay',
    body,
  })
  const succeed = async () => {
    runs++
    return ok({ run: runs })
  }

  beforeEach(() => {
    db = openDatabase(':memory:')
    migrate(db)
    clock = new EmuClock(() => T0)
    clock.freeze(T0)
    runs = 0
    realMs = 5_000
    pauses = []
    atPause = () => {}
    store = new IdempotencyStore(db, clock, {
      retentionMs: 60_000,
      sweepMs: 10_000,
      waitMs: 1_000,
      pollMs: 100,
      realNow: () => realMs,
      sleep: async (ms) => {
        pauses.push(ms)
        realMs += ms
        atPause(realMs)
        // A turn of the event loop, no real time: a wait that never ends fails on the test's timeout.
        await new Promise((resolve) => setImmediate(resolve))
      },
    })
  })

  afterEach(() => {
    db.close()
  })

  describe('run', () => {
    it('runs the first call, stores its answer and replays it as sent, marked replayed', async () => {
      const first = fakeReply()
      expect(await store.run(call('k1'), first.reply, succeed)).toEqual(ok({ run: 1 }))
      expect(first.sent.headers).toEqual({})
      const replay = fakeReply()
      expect(await store.run(call('k1'), replay.reply, succeed)).toBe(JSON.stringify(ok({ run: 1 })))
      expect(replay.sent).toEqual({
        status: 200,
        headers: { [REPLAYED_HEADER]: 'true' },
        type: 'application/json; charset=utf-8',
      })
      expect(runs).toBe(1)
      expect(rows()).toEqual([
        {
          player_id: 1,
          key: 'k1',
          state: 'done',
          status_code: 200,
          response: JSON.stringify(ok({ run: 1 })),
          endpoint: 'pay',
        },
      ])
    })

    it('stores a refusal with its HTTP status and replays it with that status', async () => {
      const refuse = async () => {
        runs++
        throw new ApiError(CODE.failed, '余额不足', 409)
      }
      expect(await refusal(store.run(call('k2'), fakeReply().reply, refuse))).toEqual({
        code: CODE.failed,
        msg: '余额不足',
        status: 409,
      })
      const replay = fakeReply()
      expect(await store.run(call('k2'), replay.reply, refuse)).toBe(
        JSON.stringify({ code: CODE.failed, msg: '余额不足', data: null }),
      )
      expect(replay.sent.status).toBe(409)
      expect(runs).toBe(1)
    })

    it('forgets the key after an unexpected failure, so a retry runs', async () => {
      await expect(
        store.run(call('k3'), fakeReply().reply, async () => {
          throw new Error('bug')
        }),
      ).rejects.toThrow('bug')
      expect(rows()).toEqual([])
      expect(await store.run(call('k3'), fakeReply().reply, succeed)).toEqual(ok({ run: 1 }))
    })

    it('refuses the same key with another body, or on another endpoint, with 422', async () => {
      await store.run(call('k4'), fakeReply().reply, succeed)
      const mismatch = { code: CODE.conflict, msg: IDEMPOTENCY_MSG.mismatch, status: 422 }
      expect(await refusal(store.run(call('k4', { amount: 6 }), fakeReply().reply, succeed))).toEqual(
        mismatch,
      )
      expect(
        await refusal(store.run({ ...call('k4'), endpointId: 'withdraw' }, fakeReply().reply, succeed)),
      ).toEqual(mismatch)
      expect(runs).toBe(1)
    })

    it('keeps keys per player; a call without a session counts as player 0', async () => {
      await store.run(call('k5', { amount: 5 }, 1), fakeReply().reply, succeed)
      await store.run(call('k5', { amount: 5 }, 2), fakeReply().reply, succeed)
      await store.run(call('k5', { amount: 5 }, null), fakeReply().reply, succeed)
      expect(runs).toBe(3)
      expect(rows().map((r) => (r as { player_id: number }).player_id)).toEqual([1, 2, 0])
      const replay = fakeReply()
      await store.run(call('k5', { amount: 5 }, null), replay.reply, succeed)
      expect(replay.sent.headers[REPLAYED_HEADER]).toBe('true')
      expect(runs).toBe(3)
    })

    it('refuses a malformed key before anything is stored', async () => {
      for (const key of ['', 'x'.repeat(129), 'has space', 'ключ']) {
        expect(await refusal(store.run(call(key), fakeReply().reply, succeed))).toEqual({
          code: CODE.invalidInput,
          msg: IDEMPOTENCY_MSG.badKey,
          status: 400,
        })
      }
      expect(await store.run(call('x'.repeat(128)), fakeReply().reply, succeed)).toEqual(ok({ run: 1 }))
      expect(runs).toBe(1)
    })

    it('a replay here while the first runs waits for it, and one after an unexpected failure is told to retry', async () => {
      // A replay in the process of the first call is woken by it, never by polling (no pause).
      let finish: (v: unknown) => void = () => {}
      let crash: (e: unknown) => void = () => {}
      const first = store.run(
        call('k6'),
        fakeReply().reply,
        () =>
          new Promise((resolve, reject) => {
            finish = resolve
            crash = reject
          }),
      )
      let replayed: unknown = 'not yet'
      const replay = store.run(call('k6'), fakeReply().reply, succeed).then((r) => {
        replayed = r
      })
      finish(ok({ held: true }))
      expect(await first).toEqual(ok({ held: true }))
      for (let i = 0; i < 20; i++) await Promise.resolve()
      expect(replayed).toBe(JSON.stringify(ok({ held: true })))
      await replay

      const second = store.run(
        call('k7'),
        fakeReply().reply,
        () => new Promise((_, reject) => (crash = reject)),
      )
      let told: unknown = 'not yet'
      const waiting = refusal(store.run(call('k7'), fakeReply().reply, succeed)).then((r) => {
        told = r
      })
      crash(new Error('bug'))
      await expect(second).rejects.toThrow('bug')
      for (let i = 0; i < 20; i++) await Promise.resolve()
      expect(told).toEqual({ code: CODE.conflict, msg: IDEMPOTENCY_MSG.inProgress, status: 409 })
      await waiting
      expect(runs).toBe(0)
      expect(pauses).toEqual([])
    })
  })

  describe('a first call running in another process', () => {
    const pendingElsewhere = (key: string) =>
      db
        .prepare(
          `INSERT INTO idempotency_keys (player_id, key, fingerprint, state, created_at, endpoint)
           VALUES (1, ?, ?, 'pending', ?, 'pay')`,
        )
        .run(key, fingerprintOf('pay', { amount: 5 }), T0)

    const answerElsewhere = (key: string) =>
      db
        .prepare(
          "UPDATE idempotency_keys SET state = 'done', status_code = 200, response = '\"theirs\"' WHERE key = ?",
        )
        .run(key)

    it('is watched, a look every pollMs, until its answer is stored', async () => {
      pendingElsewhere('p1')
      atPause = (t) => {
        if (t === 5_300) answerElsewhere('p1')
      }
      const replay = fakeReply()
      expect(await store.run(call('p1'), replay.reply, succeed)).toBe('"theirs"')
      expect(replay.sent.headers[REPLAYED_HEADER]).toBe('true')
      expect(pauses).toEqual([100, 100, 100])
      expect(runs).toBe(0)
    })

    it('is given up on after waitMs of real time with 409, and not run here', async () => {
      pendingElsewhere('p2')
      expect(await refusal(store.run(call('p2'), fakeReply().reply, succeed))).toEqual({
        code: CODE.conflict,
        msg: IDEMPOTENCY_MSG.inProgress,
        status: 409,
      })
      // Looked at 0, 100, … 1,000 ms: the look at the deadline is the last.
      expect(pauses).toEqual(Array(10).fill(100))
      expect(runs).toBe(0)
    })

    it('gives the answer stored by the last look, at the deadline', async () => {
      pendingElsewhere('p5')
      atPause = (t) => {
        if (t === 6_000) answerElsewhere('p5')
      }
      expect(await store.run(call('p5'), fakeReply().reply, succeed)).toBe('"theirs"')
      expect(pauses).toHaveLength(10)
    })

    it('measures the wait in real time, not on the world clock a tester moves on meanwhile', async () => {
      pendingElsewhere('p6')
      // The world stands still (frozen) through the test above; here a tester moves it an hour on
      // while the replay waits.
      atPause = (t) => {
        if (t === 5_100) clock.advance(3_600_000)
        if (t === 5_500) answerElsewhere('p6')
      }
      expect(await store.run(call('p6'), fakeReply().reply, succeed)).toBe('"theirs"')
      expect(pauses).toHaveLength(5)
    })

    it('is waited for even when this process ran the same key before and released it', async () => {
      await expect(
        store.run(call('p4'), fakeReply().reply, async () => {
          throw new Error('bug')
        }),
      ).rejects.toThrow('bug')
      pendingElsewhere('p4')
      atPause = (t) => {
        if (t === 5_200) answerElsewhere('p4')
      }
      expect(await store.run(call('p4'), fakeReply().reply, succeed)).toBe('"theirs"')
      expect(pauses).toEqual([100, 100])
    })

    it('by default is timed by Date.now and paused with setTimeout', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'Date'], now: 0 })
      try {
        const plain = new IdempotencyStore(db, clock, {
          retentionMs: 60_000,
          sweepMs: 10_000,
          waitMs: 1_000,
          pollMs: 100,
        })
        pendingElsewhere('p7')
        let settled = false
        const replay = refusal(plain.run(call('p7'), fakeReply().reply, succeed)).finally(() => {
          settled = true
        })
        await vi.advanceTimersByTimeAsync(900)
        expect(settled).toBe(false)
        await vi.advanceTimersByTimeAsync(100)
        expect(await replay).toEqual({ code: CODE.conflict, msg: IDEMPOTENCY_MSG.inProgress, status: 409 })
      } finally {
        vi.useRealTimers()
      }
    })

    it('that released its key is answered 409 too', async () => {
      pendingElsewhere('p3')
      atPause = () => db.prepare("DELETE FROM idempotency_keys WHERE key = 'p3'").run()
      const replay = refusal(store.run(call('p3'), fakeReply().reply, succeed))
      expect(await replay).toEqual({ code: CODE.conflict, msg: IDEMPOTENCY_MSG.inProgress, status: 409 })
      expect(pauses).toEqual([100])
    })
  })

  describe('expiry', () => {
    it('forgets a key after the retention, swept at most once per sweepMs', async () => {
      await store.run(call('e1'), fakeReply().reply, succeed)
      clock.advance(60_001)
      // Swept: e1 is gone, so it runs again.
      await store.run(call('e1'), fakeReply().reply, succeed)
      expect(runs).toBe(2)
      await store.run(call('e2'), fakeReply().reply, succeed)
      clock.advance(55_000)
      // A sweep is due, but e1 and e2 are 55 s old: kept.
      await store.run(call('e3'), fakeReply().reply, succeed)
      clock.advance(5_001)
      // e1 and e2 have expired, but the last sweep was 5 s ago on the clock: not swept yet.
      await store.run(call('e4'), fakeReply().reply, succeed)
      expect(rows()).toHaveLength(4)
      clock.advance(4_999)
      // 10 s after the last sweep: swept.
      await store.run(call('e5'), fakeReply().reply, succeed)
      expect(rows().map((r) => (r as { key: string }).key)).toEqual(['e3', 'e4', 'e5'])
    })

    it('sweeps again when the clock is set back', async () => {
      await store.run(call('b1'), fakeReply().reply, succeed)
      clock.advance(120_000)
      await store.run(call('b2'), fakeReply().reply, succeed)
      expect(rows().map((r) => (r as { key: string }).key)).toEqual(['b2'])
      clock.freeze(T0 - 200_000)
      await store.run(call('b3'), fakeReply().reply, succeed)
      clock.freeze(T0 + 500_000)
      await store.run(call('b4'), fakeReply().reply, succeed)
      expect(rows().map((r) => (r as { key: string }).key)).toEqual(['b4'])
    })

    it('sweeps at once after the clock is set back, not a sweep interval after the old time', async () => {
      await store.run(call('c1'), fakeReply().reply, succeed)
      clock.advance(300_000)
      // Swept at T0 + 300 s; the call fails unexpectedly, so it leaves no key behind.
      await expect(
        store.run(call('c2'), fakeReply().reply, async () => {
          throw new Error('bug')
        }),
      ).rejects.toThrow('bug')
      clock.freeze(T0)
      await store.run(call('c3'), fakeReply().reply, succeed)
      clock.freeze(T0 + 70_000)
      // c3 (stored at T0) has expired; the clock is still before the sweep at T0 + 300 s.
      await store.run(call('c3'), fakeReply().reply, succeed)
      expect(runs).toBe(3)
    })

    it('keeps the defaults the docs give: a day, swept every minute', () => {
      expect(IDEMPOTENCY_DEFAULTS).toEqual({
        retentionMs: 86_400_000,
        sweepMs: 60_000,
        waitMs: 10_000,
        pollMs: 20,
      })
    })
  })

  describe('answers stored with their writes', () => {
    it('recordAnswer marks the running call done inside its transaction; outside a call it does nothing', async () => {
      const seen: unknown[] = []
      await store.run(call('r1'), fakeReply().reply, async () => {
        immediate(db, () => recordAnswer(db, { paid: 5 }))
        seen.push(rows())
        return ok({ paid: 5 })
      })
      expect(seen).toEqual([
        [
          {
            player_id: 1,
            key: 'r1',
            state: 'done',
            status_code: 200,
            response: JSON.stringify(ok({ paid: 5 })),
            endpoint: 'pay',
          },
        ],
      ])
      recordAnswer(db, { stray: true })
      expect(rows()).toHaveLength(1)
      expect(JSON.stringify(rows())).not.toContain('stray')
    })

    it('at start-up forgets the pending keys of those endpoints only, and says how many', () => {
      const insert = db.prepare(
        `INSERT INTO idempotency_keys (player_id, key, fingerprint, state, created_at, endpoint)
         VALUES (1, ?, 'f', ?, 0, ?)`,
      )
      insert.run('w1', 'pending', 'withdraw')
      insert.run('w2', 'done', 'withdraw')
      insert.run('w3', 'pending', 'pay')
      insert.run('w4', 'pending', 'exchange')
      const restarted = new IdempotencyStore(db, clock, IDEMPOTENCY_DEFAULTS, ['withdraw', 'exchange'])
      expect(rows().map((r) => (r as { key: string }).key)).toEqual(['w2', 'w3'])
      insert.run('w5', 'pending', 'withdraw')
      expect(restarted.resolveInterrupted(['withdraw'])).toBe(1)
      expect(restarted.resolveInterrupted([])).toBe(0)
    })
  })

  describe('runAtomic', () => {
    it('refuses a malformed key and an asynchronous handler, storing nothing', async () => {
      expect(await refusal(store.runAtomic(call(''), fakeReply().reply, () => ok(1)))).toMatchObject({
        code: CODE.invalidInput,
        msg: IDEMPOTENCY_MSG.badKey,
      })
      await expect(
        store.runAtomic(call('a1'), fakeReply().reply, () => Promise.resolve(ok(1))),
      ).rejects.toThrow('an atomic idempotent handler must be synchronous')
      expect(rows()).toEqual([])
    })

    it('keeps keys per player (0 without a session), and forgets them after the retention', async () => {
      const answer = () => {
        runs++
        return ok({ run: runs })
      }
      await store.runAtomic(call('a4', { amount: 5 }, 1), fakeReply().reply, answer)
      await store.runAtomic(call('a4', { amount: 5 }, 2), fakeReply().reply, answer)
      await store.runAtomic(call('a4', { amount: 5 }, null), fakeReply().reply, answer)
      expect(runs).toBe(3)
      expect(rows().map((r) => (r as { player_id: number }).player_id)).toEqual([1, 2, 0])
      await store.runAtomic(call('a4', { amount: 5 }, 2), fakeReply().reply, answer)
      expect(runs).toBe(3)
      clock.advance(60_001)
      await store.runAtomic(call('a4', { amount: 5 }, 2), fakeReply().reply, answer)
      expect(runs).toBe(4)
      expect(rows()).toHaveLength(1)
    })

    it('stores whatever the handler answers, null included', async () => {
      expect(await store.runAtomic(call('a5'), fakeReply().reply, () => null)).toBe('null')
      expect(await store.runAtomic(call('a5'), fakeReply().reply, () => 'other')).toBe('null')
    })

    it('sends the stored text as JSON, and replays it with the refusal’s status', async () => {
      const first = fakeReply()
      expect(await store.runAtomic(call('a2'), first.reply, () => ok({ n: 1 }))).toBe(
        JSON.stringify(ok({ n: 1 })),
      )
      expect(first.sent).toEqual({ status: 200, headers: {}, type: 'application/json; charset=utf-8' })
      const refuse = () => {
        throw new ApiError(CODE.failed, '不行', 403)
      }
      expect(await refusal(store.runAtomic(call('a3'), fakeReply().reply, refuse))).toEqual({
        code: CODE.failed,
        msg: '不行',
        status: 403,
      })
      const replay = fakeReply()
      expect(await store.runAtomic(call('a3'), replay.reply, refuse)).toBe(
        JSON.stringify({ code: CODE.failed, msg: '不行', data: null }),
      )
      expect(replay.sent.status).toBe(403)
      expect(replay.sent.headers[REPLAYED_HEADER]).toBe('true')
    })
  })
})
