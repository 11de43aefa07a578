import { CODE } from '@shared/envelope'
import { SERVER_MSG } from '@shared/messages'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { AdminAccess, adminTokenMatches, INTERNAL_HEADER } from '../fault/admin-access'
import { isCrossSiteWrite } from '../http/cross-site'
import { installErrorHandler } from '../http/error-handler'
import { requestTarget, surfaceOf } from './request-target'
import { API_HEADERS, ASSET_HEADERS, security } from './security'

/**
 * The guards in front of every route, on a small server of their own: the request target check,
 * the security headers and the cross-site refusal per surface, the rate limit's answer, and the
 * control API's admin guard.
 */

let app: FastifyInstance | null = null
afterEach(async () => {
  await app?.close()
  app = null
})

/** Routes on every surface; `ran` lists the handlers that ran. */
async function server(admin?: AdminAccess) {
  const a = Fastify()
  app = a
  const ran: string[] = []
  installErrorHandler(a)
  await a.register(requestTarget, {
    methodsOf: (path: string) =>
      path === '/api/thing' || path === '/__emu/state'
        ? ['POST']
        : path === '/api/both'
          ? ['GET', 'POST']
          : undefined,
  })
  await a.register(security, { frameHosts: ['https://pay.example'] })
  if (admin)
    a.addHook('onRequest', async (request, reply) => {
      if (request.surface === 'control') return admin.check(request, reply)
    })
  const route = (method: 'GET' | 'POST', url: string, extra: object = {}) =>
    a.route({
      method,
      url,
      ...extra,
      handler: async () => {
        ran.push(`${method} ${url}`)
        return { code: 1, msg: '成功', data: null }
      },
    })
  route('POST', '/api/thing')
  route('POST', '/api/limited', { config: { rateLimit: { max: 1, timeWindow: 90_000 } } })
  route('POST', '/__emu/state')
  route('GET', '/api-docs/json')
  route('GET', '/livez')
  route('POST', '/form')
  route('GET', '/*')
  await a.ready()
  return { app: a, ran }
}

const CROSS = { 'sec-fetch-site': 'cross-site' }
const REFUSED = { code: CODE.crossSite, msg: SERVER_MSG.crossSite, data: null }

describe('surfaces', () => {
  it('are told by the path’s first segment, whole', () => {
    const table: Record<string, string> = {
      '/api': 'api',
      '/api/x': 'api',
      '/api?x=1': 'api',
      '/apix': 'other',
      '/__emu': 'control',
      '/__emu/state': 'control',
      '/__emu?scope=a': 'control',
      '/__emux': 'other',
      '/api-docs': 'docs',
      '/api-docs/json': 'docs',
      '/api-docsx': 'other',
      '/livez': 'ops',
      '/readyz': 'ops',
      '/livez/x': 'other',
      '/': 'other',
    }
    for (const [path, surface] of Object.entries(table)) expect(surfaceOf(path), path).toBe(surface)
  })
})

describe('security headers', () => {
  it('puts the API set on /api answers', async () => {
    const { app } = await server()
    const res = await app.inject({ method: 'POST', url: '/api/thing' })
    expect(res.statusCode).toBe(200)
    expect(API_HEADERS).toEqual({
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      'cross-origin-resource-policy': 'same-origin',
      'cache-control': 'no-store',
    })
    for (const [name, value] of Object.entries(API_HEADERS)) expect(res.headers[name], name).toBe(value)
    // No rate limit on a route that did not ask for one.
    expect(res.headers['x-ratelimit-limit']).toBeUndefined()
  })

  it('puts the small set on the build’s assets, and the page set with its CSP on pages', async () => {
    const { app } = await server()
    const asset = await app.inject({ url: '/assets/index-abc.js' })
    expect(ASSET_HEADERS).toEqual({
      'x-content-type-options': 'nosniff',
      'cross-origin-resource-policy': 'same-origin',
    })
    for (const [name, value] of Object.entries(ASSET_HEADERS)) expect(asset.headers[name], name).toBe(value)
    expect(asset.headers['content-security-policy']).toBeUndefined()
    expect(asset.headers['cache-control']).toBeUndefined()

    const page = await app.inject({ url: '/home' })
    expect(String(page.headers['content-security-policy']).split(';')).toEqual([
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "font-src 'self' data:",
      "connect-src 'self'",
      "worker-src 'self'",
      "manifest-src 'self'",
      "media-src 'self' data: blob:",
      "frame-src 'self' https://pay.example",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "frame-ancestors 'self'",
    ])
    expect(page.headers['cross-origin-embedder-policy']).toBeUndefined()
    expect(page.headers['cache-control']).toBeUndefined()
  })

  it('puts neither set on the docs or the health checks', async () => {
    const { app } = await server()
    for (const url of ['/api-docs/json', '/livez']) {
      const res = await app.inject({ url })
      expect(res.statusCode, url).toBe(200)
      expect(res.headers['content-security-policy'], url).toBeUndefined()
      expect(res.headers['x-content-type-options'], url).toBeUndefined()
    }
  })
})

describe('cross-site writes', () => {
  it('are refused on /api and /__emu before the handler runs', async () => {
    const { app, ran } = await server()
    for (const url of ['/api/thing', '/__emu/state']) {
      const res = await app.inject({ method: 'POST', url, headers: CROSS })
      expect(res.statusCode, url).toBe(403)
      expect(res.json()).toEqual(REFUSED)
    }
    const api = await app.inject({ method: 'POST', url: '/api/thing', headers: CROSS })
    expect(api.headers['cache-control']).toBe('no-store')
    expect(ran).toEqual([])
  })

  it('are let through on the other surfaces, and same-site writes everywhere', async () => {
    const { app, ran } = await server()
    expect((await app.inject({ method: 'POST', url: '/form', headers: CROSS })).statusCode).toBe(200)
    const same = { 'sec-fetch-site': 'same-origin' }
    expect((await app.inject({ method: 'POST', url: '/api/thing', headers: same })).statusCode).toBe(200)
    expect((await app.inject({ method: 'POST', url: '/__emu/state', headers: same })).statusCode).toBe(200)
    expect(ran).toEqual(['POST /form', 'POST /api/thing', 'POST /__emu/state'])
  })
})

describe('isCrossSiteWrite', () => {
  const request = (method: string, headers: Record<string, string>, host = 'shop.example') =>
    ({ method, headers, host }) as unknown as Parameters<typeof isCrossSiteWrite>[0]

  it('never refuses a method that only reads', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS']) {
      expect(isCrossSiteWrite(request(method, { 'sec-fetch-site': 'cross-site' })), method).toBe(false)
      expect(isCrossSiteWrite(request(method, { origin: 'https://evil.example' })), method).toBe(false)
    }
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      expect(isCrossSiteWrite(request(method, { 'sec-fetch-site': 'cross-site' })), method).toBe(true)
    }
  })
})

describe('request targets', () => {
  it('refuses a path not in its one spelling with 400, naming why, before anything runs', async () => {
    const { app, ran } = await server()
    const res = await app.inject({ method: 'POST', url: '/api//thing' })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({
      code: CODE.invalidInput,
      msg: '请求地址格式错误（路径含空段 //）',
      data: null,
    })
    expect(res.headers['cache-control']).toBe('no-store')
    expect(ran).toEqual([])
  })

  it('answers a method no route of a known path serves with 405 and Allow', async () => {
    const { app } = await server()
    for (const url of ['/api/thing', '/__emu/state?scope=a']) {
      const res = await app.inject({ method: 'PUT', url })
      expect(res.statusCode, url).toBe(405)
      expect(res.headers.allow).toBe('POST')
      expect(res.headers['x-content-type-options']).toBe('nosniff')
      expect(res.json()).toEqual({
        code: CODE.methodNotAllowed,
        msg: SERVER_MSG.methodNotAllowed,
        data: null,
      })
    }
  })

  it('lists every method the path takes in Allow', async () => {
    const { app } = await server()
    const res = await app.inject({ method: 'DELETE', url: '/api/both' })
    expect(res.statusCode).toBe(405)
    expect(res.headers.allow).toBe('GET, POST')
  })

  it('leaves an unknown path and a page to the routes', async () => {
    const { app } = await server()
    expect((await app.inject({ method: 'PUT', url: '/api/nothing' })).statusCode).toBe(404)
    expect((await app.inject({ url: '/api/thing' })).statusCode).toBe(405)
    expect((await app.inject({ url: '/some/page' })).statusCode).toBe(200)
  })
})

describe('rate limits', () => {
  it('answer 429 in the envelope, saying when to retry', async () => {
    const { app } = await server()
    expect((await app.inject({ method: 'POST', url: '/api/limited' })).statusCode).toBe(200)
    const res = await app.inject({ method: 'POST', url: '/api/limited' })
    expect(res.statusCode).toBe(429)
    expect(res.json()).toEqual({
      code: CODE.rateLimited,
      msg: `${SERVER_MSG.rateLimited}（90 秒后重试）`,
      data: null,
    })
  })
})

describe('the admin guard of /__emu', () => {
  const TOKEN = 'a-long-admin-token-123'

  it('with a token: 401 without it, 403 with a wrong one, through with it; the player API is not asked', async () => {
    const { app, ran } = await server(new AdminAccess(TOKEN))
    const url = '/__emu/state'
    const none = await app.inject({ method: 'POST', url })
    expect(none.statusCode).toBe(401)
    expect(none.json()).toEqual({ code: 401, msg: '缺少 x-emu-admin-token', data: null })
    const wrong = await app.inject({ method: 'POST', url, headers: { 'x-emu-admin-token': `${TOKEN}x` } })
    expect(wrong.statusCode).toBe(403)
    expect(wrong.json()).toEqual({ code: 403, msg: 'x-emu-admin-token 不正确', data: null })
    expect(ran).toEqual([])
    const right = await app.inject({ method: 'POST', url, headers: { 'x-emu-admin-token': TOKEN } })
    expect(right.statusCode).toBe(200)
    expect(
      (await app.inject({ method: 'POST', url: '/api/thing', remoteAddress: '10.0.0.1' })).statusCode,
    ).toBe(200)
  })

  it('without a token: this machine only', async () => {
    const { app } = await server(new AdminAccess(undefined))
    const url = '/__emu/state'
    expect((await app.inject({ method: 'POST', url, remoteAddress: '127.0.0.1' })).statusCode).toBe(200)
    const far = await app.inject({ method: 'POST', url, remoteAddress: '10.0.0.1' })
    expect(far.statusCode).toBe(403)
    expect(far.json()).toEqual({
      code: 403,
      msg: '未设置 EMU_ADMIN_TOKEN 时控制接口仅限本机访问',
      data: null,
    })
  })

  it('knows the server’s own calls by their key, and removes the marker', () => {
    const admin = new AdminAccess(undefined)
    const other = new AdminAccess(undefined)
    expect(admin.internalKey).toMatch(/^[0-9a-f]{32}$/)
    expect(other.internalKey).not.toBe(admin.internalKey)
    const request = (marker?: string) =>
      ({ headers: marker === undefined ? {} : { 'x-emu-internal': marker } }) as unknown as Parameters<
        AdminAccess['isInternal']
      >[0]
    const mine = request(admin.internalKey)
    expect(admin.isInternal(mine)).toBe(true)
    expect(INTERNAL_HEADER).toBe('x-emu-internal')
    expect(mine.headers['x-emu-internal']).toBeUndefined()
    const forged = request(other.internalKey)
    expect(admin.isInternal(forged)).toBe(false)
    expect(forged.headers['x-emu-internal']).toBeUndefined()
    expect(admin.isInternal(request())).toBe(false)
  })

  it('compares tokens whole, and nothing but a string matches', () => {
    expect(adminTokenMatches(TOKEN, TOKEN)).toBe(true)
    expect(adminTokenMatches(TOKEN.slice(0, -1), TOKEN)).toBe(false)
    expect(adminTokenMatches(`${TOKEN}x`, TOKEN)).toBe(false)
    expect(adminTokenMatches([TOKEN], TOKEN)).toBe(false)
    expect(adminTokenMatches(undefined, TOKEN)).toBe(false)
  })
})
