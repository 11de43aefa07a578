import { createServer, type Server } from 'node:http'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../app'
import { testConfig } from '../config'
import { requestTarget } from '../plugins/request-target'
import { listenOnLoopback as listen } from '../test-support/listen'
import { rawExchange } from '../test-support/raw-socket'
import { nonCanonicalReason } from './canonical-path'

/**
 * Every guard holds however a path is written: a table of spellings of each guarded path, sent as
 * raw bytes (a client library would tidy them first), in both modes, with and without an admin
 * token. Each spelling is either refused as not canonical (400) or meets the guard of the route it
 * reaches; none is ever let through, and in proxy mode none reaches the upstream.
 */

const TOKEN = 'an-admin-token-of-some-length'

/** Ways to write `path` that a router, a browser or an upstream may read as `path`. */
function spellings(path: string, host: string): string[] {
  const [, first = '', ...rest] = path.split('/')
  const tail = rest.length > 0 ? `/${rest.join('/')}` : ''
  const encode = (s: string) =>
    [...s].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('')
  return [
    `/${encode(first)}${tail}`,
    `/${encode(first).toUpperCase()}${tail}`,
    `/${encode(first[0] ?? '')}${first.slice(1)}${tail}`,
    `/${first}/${encode(rest[0] ?? '')}${rest.length > 1 ? `/${rest.slice(1).join('/')}` : ''}`,
    `/${first}${tail.replace('/', '%2F')}`,
    `/${first}${tail.replace('/', '%2f')}`,
    `/${first}${tail.replace('/', '%5C')}`,
    `//${first}${tail}`,
    `/${first}/${tail}`,
    `/./${first}${tail}`,
    `/x/../${first}${tail}`,
    `/${first}/.${tail}`,
    `/${first}/x/..${tail}`,
    `/%2e/${first}${tail}`,
    `/x/%2E%2E/${first}${tail}`,
    `/x/.%2e/${first}${tail}`,
    `/${first.toUpperCase()}${tail}`,
    `/${first[0]?.toUpperCase()}${first.slice(1)}${tail}`,
    `/${first};x=1${tail}`,
    `/${first}${tail};x=1`,
    `/${first};${tail}`,
    `/\\${first}${tail}`,
    `/${first}${tail.replace('/', '\\')}`,
    `http://${host}${path}`,
    `http://elsewhere.example${path}`,
    `HTTP://${host.toUpperCase()}${path}`,
    // Canonical spellings the router also takes: these must meet the guard itself.
    path,
    `${path}/`,
    `${path}?x=/../`,
  ]
}

interface Answer {
  status: number
  headers: Record<string, string>
  body: string
}

async function send(
  base: string,
  method: string,
  target: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const host = new URL(base).host
  const lines = [`${method} ${target} HTTP/1.1`, `Host: ${host}`, 'Connection: close']
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`)
  const body = method === 'POST' ? 'phone=13800138000&purpose=login' : ''
  if (method === 'POST')
    lines.push('Content-Type: application/x-www-form-urlencoded', `Content-Length: ${body.length}`)
  const { text } = await rawExchange(base, `${lines.join('\r\n')}\r\n\r\n${body}`)
  const [head = '', rest = ''] = text.split('\r\n\r\n')
  const [statusLine = '', ...headerLines] = head.split('\r\n')
  const out: Record<string, string> = {}
  for (const line of headerLines) {
    const i = line.indexOf(':')
    out[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim()
  }
  return { status: Number(statusLine.split(' ')[1]), headers: out, body: rest }
}

/** An upstream that answers success to everything and records what reached it. */
let stub: Server
let stubUrl: string
const reachedUpstream: string[] = []

beforeAll(async () => {
  stub = createServer((req, res) => {
    reachedUpstream.push(`${req.method} ${req.url}`)
    req.resume()
    req.on('end', () => {
      res.setHeader('content-type', 'application/json')
      res.end('{"code":1,"msg":"成功","data":{"balance":"1.00"}}')
    })
  })
  await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve))
  const address = stub.address()
  if (!address || typeof address === 'string') throw new Error('no address')
  stubUrl = `http://127.0.0.1:${address.port}`
})
afterAll(() => new Promise<void>((resolve) => stub.close(() => resolve())))

const SETUPS = [
  { name: 'emulator, no token', env: {} },
  { name: 'emulator, with a token', env: { EMU_ADMIN_TOKEN: TOKEN } },
  { name: 'proxy, no token', env: { MODE: 'proxy' } },
  { name: 'proxy, with a token', env: { MODE: 'proxy', EMU_ADMIN_TOKEN: TOKEN } },
] as const

describe.each(SETUPS)('every spelling of a guarded path, $name', ({ env }) => {
  let app: FastifyInstance
  let base: string
  const proxy = 'MODE' in env
  const tokenSet = 'EMU_ADMIN_TOKEN' in env
  beforeAll(async () => {
    app = await buildApp(testConfig({ ...env, ...(proxy ? { UPSTREAM_URL: stubUrl } : {}) }))
    base = await listen(app)
  })
  afterAll(() => app.close())

  // Tests are registered only where they apply: proxy mode without a token has no /__emu at all.
  const testerApiOn = !proxy || tokenSet
  if (testerApiOn) {
    it('the tester API: refused, or the admin token asked for; never answered', async () => {
      const host = new URL(base).host
      for (const target of spellings('/__emu/state', host)) {
        const res = await send(base, 'GET', target)
        if (!tokenSet) {
          // From this machine without a token the API is open by design; every other spelling is refused.
          if (nonCanonicalReason(target) === null) continue
          expect(res.status, target).toBe(400)
          continue
        }
        expect([400, 401], target).toContain(res.status)
        expect(JSON.parse(res.body).data, target).toBeNull()
        const wrong = await send(base, 'GET', target, { 'x-emu-admin-token': 'wrong-token-wrong-token' })
        expect([400, 403], target).toContain(wrong.status)
      }
    })
  }

  it('a cross-site write to /api: refused, never run and never forwarded', async () => {
    const host = new URL(base).host
    const before = reachedUpstream.length
    for (const target of spellings('/api/sms/send', host)) {
      const foreign: Record<string, string>[] = [
        { Origin: 'https://evil.example' },
        { 'Sec-Fetch-Site': 'cross-site' },
      ]
      for (const headers of foreign) {
        const res = await send(base, 'POST', target, headers)
        expect([400, 403, 404, 405], `${target} ${JSON.stringify(headers)}`).toContain(res.status)
        expect(JSON.parse(res.body).code, target).not.toBe(1)
      }
    }
    // (proxy mode's readiness probe reads announcements now and then: only writes count here)
    expect(reachedUpstream.slice(before).filter((line) => !line.startsWith('GET '))).toEqual([])
  })

  it('every /api answer is never cached, however the path is written', async () => {
    const host = new URL(base).host
    for (const target of spellings('/api/api/getBalance', host)) {
      const res = await send(base, 'GET', target)
      expect(res.headers['cache-control'], target).toBe('no-store')
      expect(res.headers['content-type'], target).toMatch(/^application\/json/)
    }
  })

  if (!testerApiOn) {
    it('has no tester API, however its path is written', async () => {
      const host = new URL(base).host
      for (const target of spellings('/__emu/state', host)) {
        const res = await send(base, 'GET', target)
        expect([400, 404], target).toContain(res.status)
        expect(JSON.parse(res.body).data, target).toBeNull()
      }
    })
  }

  if (proxy) {
    it('forwards only paths it matched as written', async () => {
      const host = new URL(base).host
      const before = reachedUpstream.length
      for (const target of spellings('/api/api/getBalance', host)) {
        await send(base, 'GET', target)
        for (const control of spellings('/__emu/state', host)) await send(base, 'GET', control)
      }
      for (const line of reachedUpstream.slice(before)) {
        const target = line.slice(line.indexOf(' ') + 1)
        expect(nonCanonicalReason(target), line).toBeNull()
        expect(target.startsWith('/api/'), line).toBe(true)
      }
    })
  }
})

describe('the surface of a request', () => {
  it('is the route that matched, not the spelling: an encoded path that reaches /__emu is the tester API', async () => {
    const app = Fastify()
    const seen: string[] = []
    // Only the surface, without the spelling check, to show the guards do not lean on it.
    app.addHook('onRequest', async (request) => {
      const { surfaceOfRequest } = await import('../plugins/request-target')
      seen.push(surfaceOfRequest(request))
    })
    app.get('/__emu/state', async () => 'ok')
    app.get('/api/x', async () => 'ok')
    await app.inject({ url: '/%5F%5Femu/state' })
    await app.inject({ url: '/%61pi/x' })
    await app.inject({ url: '/nothing' })
    expect(seen).toEqual(['control', 'api', 'other'])
    await app.close()
  })

  it('refuses non-canonical targets before any route', async () => {
    const app = Fastify()
    await app.register(requestTarget, { methodsOf: () => undefined })
    app.get('/__emu/state', async () => 'ok')
    const res = await app.inject({ url: '/%5F%5Femu/state' })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ code: 40000, data: null })
    expect(res.headers['cache-control']).toBe('no-store')
    await app.close()
  })
})

describe('nonCanonicalReason', () => {
  it('takes the paths the app writes', () => {
    for (const ok of [
      '/',
      '/api/api/getBalance',
      '/api/x?a=%41&b=/../',
      '/games/block',
      '/assets/index-1a2B.js',
      '/api/content/images/%E4%B8%AD.png',
      '/api-docs/json',
    ])
      expect(nonCanonicalReason(ok), ok).toBeNull()
  })
})
