import { createServer, type Server } from 'node:http'
import { PassThrough } from 'node:stream'
import { CODE } from '@shared/envelope'
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { buildApp } from '../app'
import { testConfig } from '../config'
import { multipartBody } from '../test-support/test-app'
import { envelopeClass, envelopeCodeOf } from './metrics'

const apps: FastifyInstance[] = []
const servers: Server[] = []
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close()
  for (const s of servers.splice(0)) await new Promise((resolve) => s.close(resolve))
})

async function app(env: Record<string, string> = {}, logStream?: NodeJS.WritableStream) {
  const a = await buildApp(testConfig(env), undefined, logStream)
  apps.push(a)
  await a.ready()
  return a
}

describe('/livez and /readyz', () => {
  it('answer small plain text, never the app page; ready once the games chain and odds exist; not ready while draining', async () => {
    const a = await app({ GAME_CHAIN_LENGTH: '2000' })
    const live = await a.inject({ url: '/livez' })
    expect(live.statusCode).toBe(200)
    expect(live.headers['content-type']).toMatch(/^text\/plain/)
    expect(live.body).toBe('ok\n')
    const before = await a.inject({ url: '/readyz' })
    expect(before.statusCode).toBe(503)
    expect(before.body).toContain('games chain')
    a.emu.games.rounds.ensureChain()
    const unpriced = await a.inject({ url: '/readyz' })
    expect(unpriced.statusCode).toBe(503)
    expect(unpriced.body).not.toContain('games chain')
    expect(unpriced.body).toContain('games odds')
    a.emu.games.rounds.priceEveryGame()
    const ready = await a.inject({ url: '/readyz' })
    expect(ready.statusCode).toBe(200)
    expect(ready.body).toBe('ready\n')
    expect(ready.headers['cache-control']).toBe('no-store')
    a.health.startDraining()
    const draining = await a.inject({ url: '/readyz' })
    expect(draining.statusCode).toBe(503)
    expect(draining.body).toContain('draining')
    // Alive all the same.
    expect((await a.inject({ url: '/livez' })).statusCode).toBe(200)
  })

  it('are outside rate limits and the tester journal', async () => {
    const a = await app({ RATE_LIMIT_LOGIN: '1' })
    for (let i = 0; i < 30; i++) expect((await a.inject({ url: '/livez' })).statusCode).toBe(200)
    const journal = (await a.inject({ url: '/__emu/journal' })).json() as { data: unknown }
    expect(JSON.stringify(journal.data)).not.toContain('/livez')
  })

  it('in proxy mode: ready while the upstream answers, not ready when it has stopped', async () => {
    const upstream = createServer((_req, res) => res.end('{"code":1,"msg":"成功","data":[]}'))
    servers.push(upstream)
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
    const { port } = upstream.address() as { port: number }
    const a = await app({
      MODE: 'proxy',
      UPSTREAM_URL: `http://127.0.0.1:${port}`,
      READY_UPSTREAM_MS: '60000',
    })
    // A player's call through the proxy shows the upstream answers.
    await a.inject({ url: '/api/api2/announcement' })
    expect((await a.inject({ url: '/readyz' })).statusCode).toBe(200)

    const down = await app({ MODE: 'proxy', UPSTREAM_URL: 'http://127.0.0.1:9', READY_UPSTREAM_MS: '60000' })
    await down.inject({ url: '/api/api2/announcement' })
    const res = await down.inject({ url: '/readyz' })
    expect(res.statusCode).toBe(503)
    expect(res.body).toContain('upstream')
  })
})

describe('request ids', () => {
  it('are made here unless a trusted proxy sent one; every log line of the request and the answer carry it', async () => {
    const lines: string[] = []
    const stream = new PassThrough()
    stream.on('data', (c: Buffer) => lines.push(...c.toString().split('\n').filter(Boolean)))
    const a = await app({ LOG_LEVEL: 'info', TRUST_PROXY: '10.0.0.1' }, stream)
    const untrusted = await a.inject({
      url: '/livez',
      headers: { 'x-request-id': 'chosen-by-client' },
      remoteAddress: '10.9.9.9',
    })
    expect(untrusted.headers['x-request-id']).not.toBe('chosen-by-client')
    expect(untrusted.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
    const trusted = await a.inject({
      url: '/livez',
      headers: { 'x-request-id': 'lb-4711' },
      remoteAddress: '10.0.0.1',
    })
    expect(trusted.headers['x-request-id']).toBe('lb-4711')
    const odd = await a.inject({
      url: '/livez',
      headers: { 'x-request-id': 'has space' },
      remoteAddress: '10.0.0.1',
    })
    expect(odd.headers['x-request-id']).not.toBe('has space')
    const ofRequest = lines
      .map((l) => JSON.parse(l) as { reqId?: string })
      .filter((l) => l.reqId === 'lb-4711')
    expect(ofRequest.length).toBeGreaterThanOrEqual(2) // incoming and completed
  })

  it('go upstream in proxy mode', async () => {
    const seen: (string | undefined)[] = []
    const upstream = createServer((req, res) => {
      seen.push(req.headers['x-request-id'] as string | undefined)
      res.end('{"code":1,"msg":"成功","data":[]}')
    })
    servers.push(upstream)
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
    const { port } = upstream.address() as { port: number }
    const a = await app({ MODE: 'proxy', UPSTREAM_URL: `http://127.0.0.1:${port}` })
    const res = await a.inject({ url: '/api/api2/announcement', headers: { 'x-request-id': 'forged' } })
    expect(seen.at(-1)).toBe(res.headers['x-request-id'])
    expect(seen).not.toContain('forged')
  })
})

describe('metrics', () => {
  it('count requests by route pattern and status class, answers by envelope code class, refusals and drift', async () => {
    const a = await app({ METRICS_PORT: '0', RATE_LIMIT_LOGIN: '1' })
    expect(a.metrics).not.toBeNull()
    await a.inject({ url: '/api/users/info?player_id=123456' })
    await a.inject({ url: '/api/api2/announcement' })
    await a.inject({ url: '/api/no/such/thing' })
    const login = multipartBody({ phone: '13800138000', password: 'demo1234' })
    await a.inject({ method: 'POST', url: '/api/login', payload: login.payload, headers: login.headers })
    await a.inject({ method: 'POST', url: '/api/login', payload: login.payload, headers: login.headers })
    const text = (await a.metrics?.text()) ?? ''
    expect(text).toContain(
      'http_request_duration_seconds_count{route="/api/users/info",method="GET",status_class="2xx"} 1',
    )
    expect(text).toContain('route="unmatched"')
    expect(text).not.toContain('123456')
    expect(text).not.toContain('/api/no/such/thing')
    expect(text).toContain('api_answers_total{code_class="session_lost"} 1')
    expect(text).toMatch(/api_answers_total\{code_class="success"\} [2-9]/)
    expect(text).toContain('rate_limit_refusals_total{route="/api/login"} 1')
    expect(text).toContain('ledger_drift_accounts 0')
  })

  it('are off, costing nothing, without METRICS_PORT', async () => {
    expect((await app()).metrics).toBeNull()
  })

  it('read envelope codes from the start of an answer', () => {
    expect(envelopeCodeOf('{"code":10001,"msg":"x"}')).toBe(10001)
    expect(envelopeCodeOf(Buffer.from('{"code":1,"msg":"成功"}'))).toBe(1)
    expect(envelopeCodeOf('<html>')).toBeNull()
    expect(envelopeClass(42900)).toBe('client_error')
    expect(envelopeClass(50300)).toBe('server_error')
    expect(envelopeClass(200)).toBe('success')
  })
})

describe('load shedding', () => {
  it('answers 503 with Retry-After in the envelope under memory pressure; /livez still answers', async () => {
    // Any process is above 1 MiB of resident memory: pressure from the first sample on. The sample is
    // taken on a timer: a faked one, moved past the sampling interval.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] })
    let a: FastifyInstance
    try {
      a = await app({ PRESSURE_MAX_RSS_MB: '1', METRICS_PORT: '0' })
      expect((await a.inject({ url: '/api/api2/announcement' })).statusCode).toBe(200)
      vi.advanceTimersByTime(600)
    } finally {
      vi.useRealTimers()
    }
    const res = await a.inject({ url: '/api/api2/announcement' })
    expect(res.statusCode).toBe(503)
    expect(res.headers['retry-after']).toBe('5')
    expect(res.json()).toMatchObject({ code: CODE.unavailable, data: null })
    expect((await a.inject({ url: '/livez' })).statusCode).toBe(200)
    expect(await a.metrics?.text()).toContain('load_shed_total{kind="rssBytes"} 1')
  })
})
