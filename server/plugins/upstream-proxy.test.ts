import { createServer, request, type Server } from 'node:http'
import { CODE } from '@shared/envelope'
import { SERVER_MSG } from '@shared/messages'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../app'
import { testConfig } from '../config'
import { listenOnLoopback as listen } from '../test-support/listen'
import { API_HEADERS } from './security'

/**
 * Proxy mode against a real upstream: a second server in emulator mode on another port, with the
 * proxy in front of it. Both are called over real sockets and must answer the same bytes.
 */
let upstream: FastifyInstance
let proxy: FastifyInstance
let upstreamUrl: string
let proxyUrl: string

beforeAll(async () => {
  const limits = { RATE_LIMIT_LOGIN: '1000', RATE_LIMIT_REGISTER: '1000', RATE_LIMIT_SMS: '1000' }
  upstream = await buildApp(testConfig(limits))
  upstreamUrl = await listen(upstream)
  proxy = await buildApp(testConfig({ MODE: 'proxy', UPSTREAM_URL: upstreamUrl }))
  proxyUrl = await listen(proxy)
})
afterAll(async () => {
  await proxy.close()
  await upstream.close()
})

const urlencoded = (fields: Record<string, string>) => ({
  body: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
})

async function call(base: string, path: string, init: RequestInit = {}) {
  const res = await fetch(base + path, init)
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() }
}

describe('proxy mode', () => {
  it('runs the account flow through the proxy: urlencoded and multipart bodies, query, token header', async () => {
    const phone = '13600136000'
    const sms = await call(proxyUrl, '/api/sms/send', {
      method: 'POST',
      ...urlencoded({ phone, purpose: 'register' }),
    })
    expect(JSON.parse(sms.text)).toMatchObject({ code: 1 })
    // The SMS code is read from the upstream's own control API: the proxy doesn't serve /__emu.
    const codes = await call(upstreamUrl, `/__emu/sms?phone=${phone}`)
    const code = JSON.parse(codes.text).data[0].code as string
    const reg = await call(proxyUrl, '/api/users/register', {
      method: 'POST',
      ...urlencoded({ phone, code, password: 'amber-otter-42' }),
    })
    expect(JSON.parse(reg.text)).toMatchObject({ code: 1 })

    const form = new FormData()
    form.set('phone', phone)
    form.set('password', 'amber-otter-42')
    const login = await call(proxyUrl, '/api/login', { method: 'POST', body: form })
    const { token, player_id } = JSON.parse(login.text).data as { token: string; player_id: number }
    expect(token).toMatch(/^[0-9a-f]{32}$/)

    for (const path of [
      `/api/api/getBalance?player_id=${player_id}`,
      `/api/users/info?player_id=${player_id}`,
      '/api/api2/announcement',
    ]) {
      const direct = await call(upstreamUrl, path, { headers: { token } })
      const proxied = await call(proxyUrl, path, { headers: { token } })
      expect(proxied).toEqual(direct)
      expect(JSON.parse(proxied.text).code).toBe(1)
    }

    const change = await call(proxyUrl, '/api/users/change-password', {
      method: 'POST',
      ...urlencoded({ old_password: 'amber-otter-42', new_password: 'better456' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', token },
    })
    expect(JSON.parse(change.text)).toMatchObject({ code: 1 })
    const out = await call(proxyUrl, '/api/users/logout', { method: 'POST', headers: { token } })
    expect(JSON.parse(out.text)).toMatchObject({ code: 1 })
    const after = await call(proxyUrl, `/api/api/getBalance?player_id=${player_id}`, { headers: { token } })
    expect(JSON.parse(after.text)).toEqual({ code: 10001, msg: '登录已失效!', data: null })
  })

  it('passes the upstream’s refusals through unchanged: status and body', async () => {
    const cases: [string, RequestInit][] = [
      ['/api/users/register', { method: 'POST', ...urlencoded({ phone: 'x' }) }],
      ['/api/users/register', { method: 'POST', ...urlencoded({ phone: '1'.repeat(2 * 1024 * 1024) }) }],
      ['/api/api/getBalance?player_id=abc', { headers: { token: 'nope' } }],
      ['/api/no/such/endpoint', {}],
    ]
    for (const [path, init] of cases) {
      const direct = await call(upstreamUrl, path, init)
      const proxied = await call(proxyUrl, path, init)
      expect(proxied, path).toEqual(direct)
      // A refusal: a 4xx, or the session-lost envelope (200, as the upstream sends it).
      expect(JSON.parse(proxied.text).code, path).not.toBe(CODE.ok)
    }
  })

  it('keeps the control API off without an admin token', async () => {
    const res = await call(proxyUrl, '/__emu/state')
    expect(res.status).toBe(404)
  })
})

/**
 * What the emulator never sends: large and unsized answers, hop-by-hop headers, a text body, an
 * upstream that stalls or is down. A plain Node server stands upstream for these.
 */
describe('proxy mode, edge cases', () => {
  const big = Buffer.alloc(300 * 1024, 'abcdefghij')
  let edge: Server
  let edgeProxy: FastifyInstance
  let edgeProxyUrl: string
  /** Resolves when the upstream's endless answer is closed. */
  let upstreamStreamClosed: () => void = () => {}
  const upstreamStreamClose = new Promise<void>((resolve) => {
    upstreamStreamClosed = resolve
  })
  /** Every request the upstream received, by URL. */
  const upstreamHits: string[] = []

  beforeAll(async () => {
    edge = createServer((req, res) => {
      upstreamHits.push(req.url ?? '')
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        if (req.url === '/api/big') {
          res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': big.length })
          res.end(big)
        } else if (req.url === '/api/unsized') {
          // No content-length: chunked.
          res.writeHead(200, { 'content-type': 'text/plain' })
          res.write(big.subarray(0, 1000))
          res.end(big.subarray(1000))
        } else if (req.url === '/api/endless') {
          res.writeHead(200, { 'content-type': 'text/plain' })
          const timer = setInterval(() => res.write('tick\n'), 5)
          res.on('close', () => {
            clearInterval(timer)
            upstreamStreamClosed()
          })
        } else {
          const body = JSON.stringify({
            method: req.method,
            url: req.url,
            headers: req.headers,
            body: Buffer.concat(chunks).toString(),
          })
          res.writeHead(201, {
            'content-type': 'application/json',
            'cache-control': 'public, max-age=600',
            'x-upstream': 'yes',
            'x-private-hop': 'dropped',
            connection: 'keep-alive, x-private-hop',
          })
          res.end(body)
        }
      })
    })
    await new Promise<void>((resolve) => edge.listen(0, '127.0.0.1', resolve))
    const address = edge.address()
    if (!address || typeof address === 'string') throw new Error('no address')
    edgeProxy = await buildApp(
      testConfig({ MODE: 'proxy', UPSTREAM_URL: `http://127.0.0.1:${address.port}` }),
    )
    edgeProxyUrl = await listen(edgeProxy)
  })
  afterAll(async () => {
    await edgeProxy.close()
    edge.closeAllConnections()
    await new Promise((resolve) => edge.close(resolve))
  })

  /** A raw HTTP/1.1 call, so that hop-by-hop request headers can be sent at all. */
  function raw(
    path: string,
    init: { method?: string; headers?: Record<string, string>; body?: string } = {},
  ) {
    return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>(
      (resolve, reject) => {
        const req = request(
          `${edgeProxyUrl}${path}`,
          { method: init.method ?? 'GET', headers: init.headers },
          (res) => {
            const chunks: Buffer[] = []
            res.on('data', (c: Buffer) => chunks.push(c))
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
            )
          },
        )
        req.on('error', reject)
        req.end(init.body)
      },
    )
  }

  it('streams large and unsized answers through byte for byte', async () => {
    const sized = await raw('/api/big')
    expect(sized.status).toBe(200)
    expect(sized.headers['content-length']).toBe(String(big.length))
    expect(sized.body.equals(big)).toBe(true)
    const unsized = await raw('/api/unsized')
    expect(unsized.headers['transfer-encoding']).toBe('chunked')
    expect(unsized.body.equals(big)).toBe(true)
  })

  it('forwards method, path, query, a text body and end-to-end headers; drops hop-by-hop ones both ways', async () => {
    const res = await raw('/api/echo/x?a=1&b=%E4%B8%AD', {
      method: 'PUT',
      headers: {
        'content-type': 'text/plain',
        token: 'abc',
        'x-client-hop': 'secret',
        connection: 'keep-alive, x-client-hop',
      },
      body: '你好 text',
    })
    expect(res.status).toBe(201)
    expect(res.headers['x-upstream']).toBe('yes')
    expect(res.headers['x-private-hop']).toBeUndefined()
    const seen = JSON.parse(res.body.toString()) as {
      method: string
      url: string
      headers: Record<string, string>
      body: string
    }
    expect(seen).toMatchObject({ method: 'PUT', url: '/api/echo/x?a=1&b=%E4%B8%AD', body: '你好 text' })
    expect(seen.headers.token).toBe('abc')
    expect(seen.headers['x-client-hop']).toBeUndefined()
    expect(seen.headers['content-length']).toBe(String(Buffer.byteLength('你好 text')))
  })

  it('refuses cross-site writes before forwarding them', async () => {
    const crossSite: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'https://evil.example' },
    ]
    for (const headers of crossSite) {
      const before = upstreamHits.length
      const res = await raw('/api/sms/send', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: 'phone=13700000000&purpose=register',
      })
      expect(res.status).toBe(403)
      expect(JSON.parse(res.body.toString())).toEqual({
        code: CODE.crossSite,
        msg: SERVER_MSG.crossSite,
        data: null,
      })
      expect(upstreamHits.length).toBe(before)
    }
    const sameSite = await raw('/api/sms/send', {
      method: 'POST',
      headers: { 'sec-fetch-site': 'same-origin', 'content-type': 'text/plain' },
      body: 'x',
    })
    expect(sameSite.status).toBe(201)
  })

  it('sends every /api answer, its own refusals included, with the API security headers and no-store', async () => {
    const upstreamAnswer = await raw('/api/echo')
    const tooLarge = await raw('/api/echo', {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'content-length': String(2 * 1024 * 1024) },
    })
    const crossSite = await raw('/api/echo', { method: 'POST', headers: { 'sec-fetch-site': 'cross-site' } })
    expect([upstreamAnswer.status, tooLarge.status, crossSite.status]).toEqual([201, 413, 403])
    for (const res of [upstreamAnswer, tooLarge, crossSite]) {
      for (const [name, value] of Object.entries(API_HEADERS)) expect(res.headers[name], name).toBe(value)
    }
  })

  it('stops reading the upstream when the client leaves mid-answer', async () => {
    const controller = new AbortController()
    const res = await fetch(`${edgeProxyUrl}/api/endless`, { signal: controller.signal })
    const reader = res.body?.getReader()
    await reader?.read()
    controller.abort()
    // The upstream sees its answer closed (else this waits until the test times out).
    await upstreamStreamClose
  })

  it('answers 502 in the envelope when the upstream is down', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const address = closed.address()
    if (!address || typeof address === 'string') throw new Error('no address')
    await new Promise((resolve) => closed.close(resolve))
    const down = await buildApp(
      testConfig({ MODE: 'proxy', UPSTREAM_URL: `http://127.0.0.1:${address.port}` }),
    )
    try {
      const res = await down.inject({ method: 'GET', url: '/api/api2/announcement' })
      expect(res.statusCode).toBe(502)
      expect(res.json()).toEqual({ code: CODE.internal, msg: SERVER_MSG.internal, data: null })
      expect(res.headers['cache-control']).toBe('no-store')
      expect(res.headers['x-content-type-options']).toBe('nosniff')
    } finally {
      await down.close()
    }
  })
})

/**
 * What the upstream learns about the client, seen by a logging upstream (a Fastify server on
 * loopback that answers with the headers it received).
 */
describe('proxy mode, client addresses and claims', () => {
  let logger: FastifyInstance
  let loggerUrl: string
  const proxies: FastifyInstance[] = []

  beforeAll(async () => {
    logger = Fastify()
    logger.all('/api/*', async (request, reply) => {
      reply.header('proxy-authenticate', 'Basic realm="upstream"')
      return { headers: request.headers }
    })
    loggerUrl = await listen(logger)
  })
  afterAll(async () => {
    for (const p of proxies) await p.close()
    await logger.close()
  })

  async function proxyWith(env: Record<string, string>) {
    const app = await buildApp(testConfig({ MODE: 'proxy', UPSTREAM_URL: loggerUrl, ...env }))
    proxies.push(app)
    return listen(app)
  }

  /** What the upstream saw for one call through `base`, and the headers the client got back. */
  async function seen(base: string, headers: Record<string, string>) {
    const res = await fetch(`${base}/api/echo`, { headers })
    const body = (await res.json()) as { headers: Record<string, string> }
    return { upstream: body.headers, answer: res.headers }
  }

  const CLAIMS = {
    'x-forwarded-for': '6.6.6.6, 7.7.7.7',
    'x-forwarded-proto': 'https',
    'x-forwarded-host': 'evil.example',
    'x-forwarded-port': '443',
    'x-real-ip': '6.6.6.6',
    forwarded: 'for=6.6.6.6;proto=https',
    'proxy-authorization': 'Basic c2VjcmV0OnNlY3JldA==',
    'x-emu-scope': 'tester-1',
    'x-emu-admin-token': 'not-for-upstream-0000',
    'x-emu-anything': '1',
    token: 'player-token',
  }

  it('with TRUST_PROXY off, replaces every client claim with what the socket shows', async () => {
    const base = await proxyWith({})
    const { upstream, answer } = await seen(base, CLAIMS)
    expect(upstream['x-forwarded-for']).toBe('127.0.0.1')
    expect(upstream['x-forwarded-proto']).toBe('http')
    expect(upstream['x-forwarded-host']).toBe(new URL(base).host)
    expect(upstream.host).toBe(new URL(loggerUrl).host)
    for (const name of [
      'x-forwarded-port',
      'x-real-ip',
      'forwarded',
      'proxy-authorization',
      'x-emu-scope',
      'x-emu-admin-token',
      'x-emu-anything',
    ]) {
      expect(upstream[name], name).toBeUndefined()
    }
    expect(upstream.token).toBe('player-token')
    expect(answer.get('proxy-authenticate')).toBeNull()
  })

  it('with trusted proxies in front, passes on the chain they vouch for and nothing before it', async () => {
    for (const trust of ['127.0.0.1', 'loopback', '1']) {
      const base = await proxyWith({ TRUST_PROXY: trust })
      const { upstream } = await seen(base, CLAIMS)
      // 7.7.7.7 is the address the trusted proxy (127.0.0.1) saw; 6.6.6.6 is only its client's claim.
      expect(upstream['x-forwarded-for'], trust).toBe('7.7.7.7, 127.0.0.1')
      expect(upstream['x-forwarded-proto']).toBe('https')
      expect(upstream['x-forwarded-host']).toBe('evil.example')
      expect(upstream['x-real-ip']).toBeUndefined()
      expect(upstream.forwarded).toBeUndefined()
      expect(upstream['x-emu-scope']).toBeUndefined()
    }
  })

  it('ignores forwarding headers from a peer it does not trust', async () => {
    const base = await proxyWith({ TRUST_PROXY: '10.0.0.0/8' })
    const { upstream } = await seen(base, CLAIMS)
    expect(upstream['x-forwarded-for']).toBe('127.0.0.1')
    expect(upstream['x-forwarded-proto']).toBe('http')
    expect(upstream['x-forwarded-host']).toBe(new URL(base).host)
  })
})
