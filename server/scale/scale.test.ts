import { listenOnLoopback } from '@server/test-support/listen'
import { eventually, startRedisServer, type TestRedis } from '@server/test-support/redis-server'
import { openStream } from '@server/test-support/stream-client'
import { createTestApp, multipartBody, type TestApp } from '@server/test-support/test-app'
import { CODE } from '@shared/envelope'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'

/** Two server processes (two apps) on one Redis, as docs/deploy.md runs them behind nginx. */
describe('several processes on one Redis (REDIS_URL)', () => {
  let redis: TestRedis
  const apps: TestApp[] = []
  beforeAll(async () => {
    redis = await startRedisServer()
  })
  afterAll(async () => {
    await redis?.stop()
  })
  afterEach(async () => {
    redis.resume()
    for (const a of apps.splice(0)) await a.close()
    // A fresh Redis for the next test: no counts left over.
    await redis.kill()
    await redis.restart()
  })

  async function processes(count: number, env: Record<string, string> = {}) {
    const made: TestApp[] = []
    for (let i = 0; i < count; i++) {
      const app = await createTestApp({
        REDIS_URL: redis.url,
        METRICS_PORT: '0',
        GAME_CHAIN_LENGTH: '1000',
        ...env,
      })
      apps.push(app)
      made.push(app)
    }
    return made
  }

  const login = (t: TestApp) => {
    const { payload, headers } = multipartBody({ phone: '13800138000', password: 'wrong-password' })
    return t.app.inject({ method: 'POST', url: '/api/login', payload, headers })
  }
  const register = (t: TestApp) =>
    t.app.inject({
      method: 'POST',
      url: '/api/users/register',
      payload: { phone: '13900000001', password: 'abc12345', sms_code: '000000' },
    })

  it('counts a rate limit once for the deployment: calls to either process use up the same allowance', async () => {
    const [a, b] = await processes(2, { RATE_LIMIT_LOGIN: '3' })
    if (!a || !b) throw new Error('no apps')
    const codes: number[] = []
    for (const t of [a, b, a, b]) codes.push((await login(t)).json().code)
    expect(codes.slice(0, 3)).not.toContain(CODE.rateLimited)
    expect(codes[3]).toBe(CODE.rateLimited)
    expect((await login(a)).statusCode).toBe(429)
  })

  it('carries the emulator’s own events to its streams through Redis, with the stream’s ids', async () => {
    const [a] = await processes(1)
    if (!a) throw new Error('no app')
    const base = await listenOnLoopback(a.app)
    const { token } = await a.login()
    const s = await openStream(base, token)
    try {
      const snapshot = await s.next((e) => e.event === 'snapshot')
      expect(snapshot.id).toMatch(/^\d+-\d+$/)
      await a.app.inject({ method: 'POST', url: '/api/users/logout', headers: { token } })
      const ended = await s.next((e) => e.event === 'session_end')
      expect(ended.data).toEqual({ reason: 'revoked' })
      expect(a.app.emu.events.lastId()).toMatch(/^[1-9]\d*-\d+$/)
    } finally {
      s.close()
    }
  })

  it('answers at once when Redis is killed: closed limits refuse in the envelope, open ones let calls through', async () => {
    const [a] = await processes(1)
    if (!a) throw new Error('no app')
    expect((await login(a)).statusCode).toBe(200)
    await redis.kill()
    const started = Date.now()
    const closed = await login(a)
    expect(closed.statusCode).toBe(503)
    expect(closed.json()).toMatchObject({ code: CODE.unavailable, data: null })
    expect(typeof closed.json().msg).toBe('string')
    const open = await register(a)
    expect(open.statusCode).not.toBe(503)
    expect([CODE.unavailable, CODE.rateLimited, CODE.internal]).not.toContain(open.json().code)
    expect(Date.now() - started).toBeLessThan(2_000)

    await eventually(async () =>
      (await a.app.inject({ method: 'GET', url: '/readyz' })).body.includes('redis: unreachable'),
    )
    const metrics = (await a.app.metrics?.text()) ?? ''
    expect(metrics).toContain('redis_up 0')
    expect(metrics).toContain('rate_limit_store_errors_total{route="/api/login",outcome="refused"} 1')
    expect(metrics).toContain(
      'rate_limit_store_errors_total{route="/api/users/register",outcome="allowed"} 1',
    )
  })

  it('does not hang on a Redis that stops answering: the command times out and the request is answered', async () => {
    const [a] = await processes(1)
    if (!a) throw new Error('no app')
    expect((await a.app.metrics?.text()) ?? '').toContain('redis_up 1')
    redis.pause()
    const started = Date.now()
    const closed = await login(a)
    expect(closed.statusCode).toBe(503)
    expect(closed.json().code).toBe(CODE.unavailable)
    const open = await register(a)
    expect(open.statusCode).not.toBe(503)
    // Each waited the command timeout (500 ms) at most.
    expect(Date.now() - started).toBeLessThan(2_500)
  })
})
