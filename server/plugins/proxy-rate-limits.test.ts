import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../app'
import { testConfig } from '../config'

/**
 * Proxy mode limits the calls a guesser repeats as the emulator does (server/http/rate-limits.ts),
 * before they reach the operator's backend: by the endpoint a call is for, per client address.
 */
let upstream: Server
let app: FastifyInstance
const seen: string[] = []

beforeAll(async () => {
  upstream = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`)
    req.resume()
    req.on('end', () => {
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ code: 40100, msg: '手机号或密码错误', data: null }))
    })
  })
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r))
  const { port } = upstream.address() as AddressInfo
  app = await buildApp(
    testConfig({
      MODE: 'proxy',
      UPSTREAM_URL: `http://127.0.0.1:${port}`,
      RATE_LIMIT_LOGIN: '2',
      RATE_LIMIT_REGISTER: '1',
      TRUST_PROXY: 'loopback',
    }),
  )
})
afterAll(async () => {
  await app.close()
  await new Promise((r) => upstream.close(r))
})

const post = (url: string, from: string) =>
  app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
    payload: JSON.stringify({ phone: '13900000000', password: 'wrong-password' }),
  })

describe('per-address limits in proxy mode', () => {
  it('refuses the call over the limit in the envelope, without forwarding it', async () => {
    seen.length = 0
    const answers = [await post('/api/login', '203.0.113.1'), await post('/api/login', '203.0.113.1')]
    expect(answers.map((a) => a.json().code)).toEqual([40100, 40100])
    const over = await post('/api/login', '203.0.113.1')
    expect(over.statusCode).toBe(429)
    expect(over.json()).toMatchObject({ code: 42900, data: null })
    expect(over.json().msg).toMatch(/操作过于频繁.*秒后重试/)
    expect(seen.filter((s) => s.startsWith('POST'))).toEqual(['POST /api/login', 'POST /api/login'])
  })

  it('counts each endpoint and each address on its own, and leaves other calls alone', async () => {
    seen.length = 0
    expect((await post('/api/login', '203.0.113.2')).json().code).toBe(40100)
    expect((await post('/api/users/register', '203.0.113.1')).json().code).toBe(40100)
    expect((await post('/api/users/register', '203.0.113.1')).statusCode).toBe(429)
    // Not limited: forwarded however often.
    for (let i = 0; i < 4; i++) {
      const res = await app.inject({
        method: 'GET',
        url: '/api/api/getBalance',
        headers: { 'x-forwarded-for': '203.0.113.1' },
      })
      expect(res.statusCode).toBe(200)
    }
    expect(seen.filter((s) => s.startsWith('GET /api/api/getBalance'))).toHaveLength(4)
  })

  it('knows the endpoint by what handles the call, not by its spelling', async () => {
    seen.length = 0
    const encoded = await app.inject({
      method: 'POST',
      url: '/api/%6Cogin',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.1' },
      payload: '{}',
    })
    // A spelling that is not the one the route is known by is refused, never forwarded uncounted.
    expect(encoded.statusCode, encoded.body).toBe(400)
    // Spellings the router takes for the same route count as that route.
    for (const url of ['/api/login/', '/api/login?x=1', '//api/login']) {
      const res = await post(url, '203.0.113.1')
      expect(res.statusCode, `${url}: ${res.body}`).not.toBe(200)
    }
    expect(seen.filter((s) => s.startsWith('POST'))).toEqual([])
  })
})
