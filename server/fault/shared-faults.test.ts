import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance, InjectOptions } from 'fastify'
import { Redis } from 'ioredis'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { buildApp } from '../app'
import { testConfig } from '../config'
import { EmuClock } from '../emulator/clock'
import { listenOnLoopback } from '../test-support/listen'
import { eventually, startRedisServer, type TestRedis } from '../test-support/redis-server'
import { seededRandom } from './rng'
import { DRAW_LUA } from './shared-faults-lua'

const ADMIN = 'shared-faults-admin-token-0123'
const PATH = '/api/api2/announcement'

/*
 * Two (or three) proxy-mode servers, as the processes of one deployment, in front of one emulator
 * upstream and on one real redis-server. Each test starts from an empty Redis and new processes.
 */
describe('the fault layer shared across proxy processes (Redis)', () => {
  let redisServer: TestRedis
  let admin: Redis
  let upstream: FastifyInstance
  let upstreamUrl: string
  const apps: FastifyInstance[] = []

  beforeAll(async () => {
    redisServer = await startRedisServer()
    admin = new Redis(redisServer.url)
    upstream = await buildApp(testConfig({ GAME_CHAIN_LENGTH: '5000' }))
    upstreamUrl = await listenOnLoopback(upstream)
  })
  afterAll(async () => {
    await upstream?.close()
    admin?.disconnect()
    await redisServer?.stop()
  })
  beforeEach(async () => {
    await admin.flushall()
  })
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((a) => a.close()))
  })

  /** A proxy process of the deployment; `clock` lets a test read the time it keeps. */
  async function proxy(env: Record<string, string> = {}, clock = new EmuClock()): Promise<FastifyInstance> {
    const app = await buildApp(
      testConfig({
        MODE: 'proxy',
        UPSTREAM_URL: upstreamUrl,
        EMU_ADMIN_TOKEN: ADMIN,
        REDIS_URL: redisServer.url,
        ...env,
      }),
      clock,
    )
    await app.ready()
    apps.push(app)
    return app
  }

  const control = async (app: FastifyInstance, opts: InjectOptions) => {
    const res = await app.inject({ ...opts, headers: { ...opts.headers, 'x-emu-admin-token': ADMIN } })
    const body = res.json() as { code: number; msg: string; data: unknown }
    if (body.code !== 1) throw new Error(`${opts.method} ${opts.url}: ${res.statusCode} ${body.msg}`)
    return body.data
  }
  const addRule = (app: FastifyInstance, rule: Record<string, unknown>) =>
    control(app, { method: 'POST', url: '/__emu/faults', payload: rule }) as Promise<{ id: string }>
  const status = async (app: FastifyInstance, headers: Record<string, string> = {}) =>
    (await app.inject({ method: 'GET', url: PATH, headers })).statusCode
  const fail503 = { match: { path: PATH }, action: { type: 'status', status: 503 } }

  it('a rule added through one process fires on a request through another', async () => {
    const a = await proxy()
    const b = await proxy()
    expect(await status(b)).toBe(200)
    await addRule(a, fail503)
    // The change answered once b had taken it up: b's replica has the rule, without asking Redis.
    expect(b.faults.rules.list()).toHaveLength(1)
    expect(await status(b)).toBe(503)
    expect(await status(a)).toBe(503)
    // Uncounted rules count too, across processes (added to Redis without waiting).
    await expect
      .poll(
        async () =>
          ((await control(a, { method: 'GET', url: '/__emu/faults' })) as { matched: number }[])[0]?.matched,
      )
      .toBe(2)
  })

  it('a `times: 2` rule fires exactly twice across alternate requests to two processes', async () => {
    const a = await proxy()
    const b = await proxy()
    await addRule(b, { ...fail503, times: 2 })
    const seen = [await status(a), await status(b), await status(a), await status(b)]
    expect(seen).toEqual([503, 503, 200, 200])
    const [rule] = (await control(a, { method: 'GET', url: '/__emu/faults' })) as {
      matched: number
      fired: number
      spent: boolean
    }[]
    expect(rule).toMatchObject({ matched: 4, fired: 2, spent: true })
  })

  it('two processes racing cannot both take the last firing', async () => {
    const a = await proxy()
    const b = await proxy()
    await addRule(a, { ...fail503, times: 3 })
    const all = await Promise.all(Array.from({ length: 16 }, (_, i) => status(i % 2 === 0 ? a : b)))
    expect(all.filter((s) => s === 503)).toHaveLength(3)
  })

  it('after, every and retryPasses count across processes', async () => {
    const a = await proxy()
    const b = await proxy()
    await addRule(a, { ...fail503, after: 1, every: 2 })
    // Calls 1..5 alternate: after 1, every 2nd → calls 3 and 5 fail.
    const seen = [await status(a), await status(b), await status(a), await status(b), await status(a)]
    expect(seen).toEqual([200, 200, 503, 200, 503])
    await control(a, { method: 'DELETE', url: '/__emu/faults?scope=*' })
    await addRule(b, { ...fail503, retryPasses: true })
    // The retry of the call that failed goes through, whichever process it reaches.
    expect([await status(a), await status(b), await status(a)]).toEqual([503, 200, 503])
  })

  it('a probability rule with a seed fires on the same calls as in one process', async () => {
    const rule = { ...fail503, probability: 0.5, seed: 7 }
    const single = await proxy({ REDIS_URL: '' })
    expect(single.faults.shared).toBeNull()
    await addRule(single, rule)
    const alone: number[] = []
    for (let i = 0; i < 16; i++) alone.push(await status(single))
    await admin.flushall()
    const a = await proxy()
    const b = await proxy()
    await addRule(a, rule)
    const shared: number[] = []
    for (let i = 0; i < 16; i++) shared.push(await status(i % 2 === 0 ? a : b))
    expect(alone).toContain(503)
    expect(alone).toContain(200)
    expect(shared).toEqual(alone)
  })

  it("Redis draws a seed's generator as server/fault/rng.ts does", async () => {
    for (const seed of [1, 7, -3, 2 ** 31 + 5, 123_456_789]) {
      const random = seededRandom(seed)
      for (let k = 1; k <= 40; k++) {
        const inRedis = Number(await admin.eval(DRAW_LUA, 0, String(seed), String(k)))
        expect(inRedis).toBeCloseTo(random(), 12)
      }
    }
    // Far along the sequence too, where k·0x6d2b79f5 no longer fits a double exactly.
    const random = seededRandom(11)
    let far = 0
    for (let k = 1; k <= 5_000_001; k++) far = random()
    expect(Number(await admin.eval(DRAW_LUA, 0, '11', '5000001'))).toBeCloseTo(far, 12)
  })

  it('a state machine moves once across processes', async () => {
    const a = await proxy()
    const b = await proxy()
    await addRule(a, { ...fail503, inScenario: 'm', whenState: 'Started', setState: 'broken' })
    await addRule(a, {
      match: { path: PATH },
      action: { type: 'envelope', code: 10001 },
      inScenario: 'm',
      whenState: 'broken',
    })
    expect(await status(b)).toBe(503)
    const second = await a.inject({ method: 'GET', url: PATH })
    expect(second.json()).toMatchObject({ code: 10001 })
    expect(await control(b, { method: 'GET', url: '/__emu/states' })).toEqual([
      { scope: null, name: 'm', state: 'broken' },
    ])
  })

  it('a clock move through one process is seen by the other, the world and a scope', async () => {
    let real = Date.UTC(2026, 10, 28, 3, 0, 0)
    const clockA = new EmuClock(() => real)
    const clockB = new EmuClock(() => real)
    const a = await proxy({}, clockA)
    await proxy({}, clockB)
    await control(a, { method: 'POST', url: '/__emu/clock/advance', payload: { ms: 3_600_000 } })
    expect(clockB.worldNow()).toBe(real + 3_600_000)
    real += 1_000
    expect(clockB.worldNow()).toBe(clockA.worldNow())
    await control(a, {
      method: 'PUT',
      url: '/__emu/clock?scope=t1',
      payload: { mode: 'frozen', at: Date.UTC(2030, 0, 1) },
    })
    expect(clockB.nowFor('t1')).toBe(Date.UTC(2030, 0, 1))
    expect(clockB.nowFor('t2')).toBe(clockA.worldNow())
    // A scope's reset drops its clock everywhere.
    await control(a, { method: 'POST', url: '/__emu/reset?scope=t1' })
    expect(clockB.scopeClock('t1')).toBeUndefined()
  })

  it("a rule's `until` reads the shared clock", async () => {
    const a = await proxy()
    const b = await proxy()
    const now = Date.now()
    await addRule(a, { ...fail503, until: now + 60_000 })
    expect(await status(b)).toBe(503)
    await control(a, { method: 'POST', url: '/__emu/clock/advance', payload: { ms: 120_000 } })
    expect(await status(b)).toBe(200)
  })

  it('changes made at once through two processes are all kept', async () => {
    const a = await proxy()
    const b = await proxy()
    await Promise.all(
      Array.from({ length: 8 }, (_, i) => addRule(i % 2 === 0 ? a : b, { ...fail503, label: `r${i}` })),
    )
    expect(a.faults.rules.list()).toHaveLength(8)
    expect(b.faults.rules.list()).toHaveLength(8)
  })

  it('a removal through one process stops the rule on the other', async () => {
    const a = await proxy()
    const b = await proxy()
    const { id } = await addRule(a, fail503)
    expect(await status(a)).toBe(503)
    await control(b, { method: 'DELETE', url: `/__emu/faults/${id}` })
    expect(a.faults.rules.list()).toHaveLength(0)
    expect(await status(a)).toBe(200)
    await addRule(a, fail503)
    await control(b, { method: 'DELETE', url: '/__emu/faults?scope=*' })
    expect(await status(a)).toBe(200)
  })

  it('a process that starts after the rule was added has it', async () => {
    const a = await proxy()
    await addRule(a, { ...fail503, times: 2 })
    expect(await status(a)).toBe(503)
    const late = await proxy()
    expect(await status(late)).toBe(503)
    expect(await status(late)).toBe(200)
    expect(await status(a)).toBe(200)
  })

  it('session faults set through one process apply on the other, `any` taken once', async () => {
    const a = await proxy()
    const b = await proxy()
    const t1 = 'token-one-0123456789'
    const t2 = 'token-two-0123456789'
    await control(a, { method: 'POST', url: `/__emu/sessions/${t1}/revoke` })
    expect(await status(b, { token: t1 })).toBe(401)
    await control(a, { method: 'POST', url: '/__emu/reset?scope=*' })
    expect(await status(b, { token: t1 })).toBe(200)
    await control(a, { method: 'POST', url: '/__emu/sessions/any/expire' })
    const first = await b.inject({ method: 'GET', url: PATH, headers: { token: t2 } })
    expect(first.json()).toMatchObject({ code: 10001 })
    // Taken by t2 through b: t1 through a goes on, t2 through a is expired.
    expect((await a.inject({ method: 'GET', url: PATH, headers: { token: t1 } })).json()).toMatchObject({
      code: 1,
    })
    expect((await a.inject({ method: 'GET', url: PATH, headers: { token: t2 } })).json()).toMatchObject({
      code: 10001,
    })
  })

  it("a session's limit in requests counts across processes", async () => {
    const a = await proxy()
    const b = await proxy()
    const token = 'token-limited-0123456789'
    await control(a, { method: 'POST', url: `/__emu/sessions/${token}/lifetime`, payload: { requests: 2 } })
    const codes: number[] = []
    for (const app of [b, a, b, a]) {
      codes.push(
        ((await app.inject({ method: 'GET', url: PATH, headers: { token } })).json() as { code: number })
          .code,
      )
    }
    expect(codes).toEqual([1, 1, 10001, 10001])
  })

  it('a scenario activated through one process is active on the other', async () => {
    const a = await proxy()
    const b = await proxy()
    await control(a, { method: 'POST', url: '/__emu/scenarios/flaky/activate', payload: { scope: 's1' } })
    expect(b.faults.scenarioOf('s1')).toBe('flaky')
    expect(b.faults.rules.list('s1')).toHaveLength(1)
    // every: 3, counted across both.
    const seen: number[] = []
    for (const app of [a, b, a]) seen.push(await status(app, { 'x-emu-scope': 's1' }))
    expect(seen).toEqual([200, 200, 503])
  })

  it('a scenario whose step calls /__emu makes its change within the activation', async () => {
    const fixtures = await mkdtemp(join(tmpdir(), 'shared-faults-'))
    try {
      await mkdir(join(fixtures, 'scenarios'))
      const scenario = {
        name: 'clock-step',
        description: 'moves the scope clock by a step',
        steps: [{ method: 'POST', url: '/__emu/clock/advance', json: { ms: 86_400_000 } }],
        rules: [{ ...fail503, times: 1 }],
      }
      await writeFile(join(fixtures, 'scenarios', 'clock-step.json'), JSON.stringify(scenario))
      const clockB = new EmuClock()
      const a = await proxy({ FIXTURES_DIR: fixtures })
      const b = await proxy({ FIXTURES_DIR: fixtures }, clockB)
      const started = performance.now()
      await control(a, {
        method: 'POST',
        url: '/__emu/scenarios/clock-step/activate',
        payload: { scope: 's3' },
      })
      // Not held up by its own lock.
      expect(performance.now() - started).toBeLessThan(3_000)
      expect(clockB.nowFor('s3') - clockB.worldNow()).toBeGreaterThanOrEqual(86_400_000)
      expect([await status(b, { 'x-emu-scope': 's3' }), await status(a, { 'x-emu-scope': 's3' })]).toEqual([
        503, 200,
      ])
    } finally {
      await rm(fixtures, { recursive: true, force: true })
    }
  })

  it('a counted rule on body fields is claimed once the body is read', async () => {
    const a = await proxy()
    const b = await proxy()
    await addRule(a, {
      match: { method: 'POST', path: '/api/login', body: { phone: '13900000001' } },
      action: { type: 'envelope', code: 0, msg: 'body rule' },
      times: 1,
    })
    const login = (app: FastifyInstance) =>
      app.inject({
        method: 'POST',
        url: '/api/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'phone=13900000001&password=wrong-password',
      })
    const first = (await login(b)).json() as { msg: string }
    const second = (await login(a)).json() as { msg: string }
    expect(first.msg).toBe('body rule')
    expect(second.msg).not.toBe('body rule')
  })

  it("a reset of a scope forgets its calls in every process's journal, and its recording", async () => {
    const a = await proxy()
    const b = await proxy()
    await control(b, {
      method: 'POST',
      url: '/__emu/record?scope=s2',
      payload: { name: 'shared-faults-unwritten' },
    })
    await status(b, { 'x-emu-scope': 's2' })
    expect(b.faults.journal?.count({ scope: 's2' })).toBe(1)
    expect(a.faults.journal?.count({ scope: 's2' })).toBe(0)
    await control(a, { method: 'POST', url: '/__emu/reset?scope=s2' })
    expect(b.faults.journal?.count({ scope: 's2' })).toBe(0)
    expect(b.faults.recorders.has('s2')).toBe(false)
  })

  describe('with Redis unreachable', () => {
    let own: TestRedis
    beforeEach(async () => {
      own = await startRedisServer()
    })
    afterEach(async () => {
      own.resume()
      await Promise.all(apps.splice(0).map((app) => app.close()))
      await own.stop()
    })

    it('keeps the last replica, counted rules do not fire, changes are refused, and nothing hangs', async () => {
      const a = await proxy({ REDIS_URL: own.url })
      await addRule(a, { ...fail503, times: 5, match: { path: PATH, query: { n: '1' } } })
      await addRule(a, { ...fail503, match: { path: PATH, query: { n: '2' } } })
      own.pause()
      const started = performance.now()
      // The counted rule does not fire; the request is answered after the short wait for Redis.
      expect((await a.inject({ method: 'GET', url: `${PATH}?n=1` })).statusCode).toBe(200)
      // An uncounted rule still fires from the replica.
      expect((await a.inject({ method: 'GET', url: `${PATH}?n=2` })).statusCode).toBe(503)
      expect(performance.now() - started).toBeLessThan(5_000)
      const refused = await a.inject({
        method: 'POST',
        url: '/__emu/faults',
        headers: { 'x-emu-admin-token': ADMIN },
        payload: fail503,
      })
      expect(refused.statusCode).toBe(503)
      expect(refused.json()).toMatchObject({ code: 50300 })
      expect(a.faults.rules.list()).toHaveLength(2)
      own.resume()
      await expect
        .poll(async () => (await a.inject({ method: 'GET', url: `${PATH}?n=1` })).statusCode)
        .toBe(503)
    })

    it('starts without Redis, and shares once Redis is there', async () => {
      await own.stop()
      const a = await proxy({ REDIS_URL: own.url })
      expect(await status(a)).toBe(200)
      const add = () =>
        a.inject({
          method: 'POST',
          url: '/__emu/faults',
          headers: { 'x-emu-admin-token': ADMIN },
          payload: { ...fail503, times: 1 },
        })
      expect((await add()).statusCode).toBe(503)
      await own.restart()
      await eventually(async () => (await add()).statusCode === 200, 10_000)
      const b = await proxy({ REDIS_URL: own.url })
      expect([await status(b), await status(a)]).toEqual([503, 200])
    })
  })
})
