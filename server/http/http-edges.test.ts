import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync, gzipSync } from 'node:zlib'
import { AMOUNT_FORMAT_ERROR } from '@shared/contract/fields'
import { CODE, looseEnvelopeSchema } from '@shared/envelope'
import { SERVER_MSG } from '@shared/messages'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../app'
import { testConfig } from '../config'
import { API_HEADERS } from '../plugins/security'
import { rawExchange } from '../test-support/raw-socket'
import { createTestApp, type TestApp } from '../test-support/test-app'

let t: TestApp
let token = ''

beforeAll(async () => {
  t = await createTestApp()
  token = (await t.login()).token
})
afterAll(() => t.close())

const ADDRESS = 'THHokCProneknUpbJfWrE2SzhgP11T1J1g'
const OTHER_ADDRESS = 'TTbh7qmTJjhe5cRQjWHqLg1nDh7nZdED1R'

describe('amounts beyond the exact range', () => {
  const TOO_BIG = ['9007199254.740992', '9007199254.75', '99999999999', '999999999999.999999']
  const calls: {
    name: string
    url: string
    json?: boolean
    body: (amount: string) => Record<string, unknown>
  }[] = [
    { name: 'top-up', url: '/api/usdtpay', body: (amount) => ({ amount }) },
    { name: 'exchange', url: '/api/api/exchange', body: (amount) => ({ from: 'USDT', to: 'TRX', amount }) },
    {
      name: 'withdraw',
      url: '/api/api2/withdraw',
      body: (amount) => ({ wallet_id: '1', amount, pay_password: '123456' }),
    },
    {
      name: 'bet',
      url: '/api/games/bet',
      json: true,
      body: (amount) => ({ game: 'qukuai', round_id: '1', bets: [{ bet_type: 'big', amount }] }),
    },
    {
      name: 'transfer',
      url: '/api/games/transfer',
      body: (amount) => ({ from_address: ADDRESS, to_address: OTHER_ADDRESS, amount }),
    },
  ]

  for (const call of calls) {
    it(`are refused with a 400 envelope naming the amount on ${call.name}`, async () => {
      for (const amount of TOO_BIG) {
        const body = call.body(amount)
        const res = await t.app.inject({
          method: 'POST',
          url: call.url,
          headers: {
            token,
            'content-type': call.json ? 'application/json' : 'application/x-www-form-urlencoded',
          },
          payload: call.json
            ? JSON.stringify(body)
            : new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)])).toString(),
        })
        expect(res.statusCode, `${call.name} ${amount}`).toBe(400)
        const env = looseEnvelopeSchema.parse(res.json())
        expect(env.code).toBe(40000)
        expect(env.msg).toContain(AMOUNT_FORMAT_ERROR)
      }
    })
  }

  it('takes the largest amount the format admits as an amount (refused by the business rules, not the format)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/usdtpay',
      headers: { token, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'amount=999999999.999999',
    })
    expect(res.statusCode).toBe(200)
    expect(looseEnvelopeSchema.parse(res.json()).msg).not.toContain(AMOUNT_FORMAT_ERROR)
  })
})

describe('the page at the root', () => {
  const page = `<!doctype html><html><head><title>hash</title></head><body>${'<div></div>'.repeat(200)}</body></html>`
  let dist = ''
  beforeAll(() => {
    dist = mkdtempSync(join(tmpdir(), 'client-dist-'))
    mkdirSync(join(dist, 'assets'))
    writeFileSync(join(dist, 'index.html'), page)
    writeFileSync(join(dist, 'index.html.br'), brotliCompressSync(page))
    writeFileSync(join(dist, 'index.html.gz'), gzipSync(page))
  })
  afterAll(() => rmSync(dist, { recursive: true, force: true }))

  it('is served to every client, compressed only when the client accepts it', async () => {
    const app = await buildApp(testConfig({ CLIENT_DIST: dist }))
    try {
      for (const encoding of [undefined, 'identity', 'gzip', 'br, gzip']) {
        const headers = encoding ? { 'accept-encoding': encoding } : {}
        const get = await app.inject({ url: '/', headers })
        expect(get.statusCode, encoding).toBe(200)
        expect(get.headers['content-type']).toMatch(/^text\/html/)
        expect(get.headers['cache-control']).toBe('no-cache, no-store, must-revalidate')
        if (!encoding || encoding === 'identity') {
          expect(get.headers['content-encoding']).toBeUndefined()
          expect(get.body).toBe(page)
        } else {
          expect(get.headers['content-encoding']).toBe(encoding.startsWith('br') ? 'br' : 'gzip')
        }
        const head = await app.inject({ method: 'HEAD', url: '/', headers })
        expect(head.statusCode, `HEAD ${encoding}`).toBe(200)
        expect(head.body).toBe('')
      }
      // Other app routes as before.
      expect((await app.inject({ url: '/home' })).body).toBe(page)
    } finally {
      await app.close()
    }
  })
})

describe('a wrong method on a known API path', () => {
  it('answers 405 with Allow in the envelope', async () => {
    for (const [method, url, allow] of [
      ['POST', '/api/api2/announcement', 'GET, HEAD'],
      ['DELETE', '/api/login', 'POST'],
      ['GET', '/api/login/', 'POST'],
      ['PUT', '/api/usdtpay?x=1', 'POST'],
      // Methods no route serves anywhere, body methods included: still 405, not a content-type refusal.
      ['QUERY', '/api/api/getBalance', 'GET, HEAD'],
      ['TRACE', '/api/api/getBalance', 'GET, HEAD'],
      ['PATCH', '/api/login', 'POST'],
      ['QUERY', '/__emu/state', 'GET, HEAD'],
    ] as const) {
      const res = await t.app.inject({ method: method as 'GET', url })
      expect(res.statusCode, `${method} ${url}`).toBe(405)
      expect(res.headers.allow).toBe(allow)
      expect(res.json()).toEqual({
        code: CODE.methodNotAllowed,
        msg: SERVER_MSG.methodNotAllowed,
        data: null,
      })
    }
    expect((await t.app.inject({ method: 'POST', url: '/api/no/such/path' })).statusCode).toBe(404)
  })
})

describe('a URL the router cannot read', () => {
  it('answers 400 in the envelope', async () => {
    const res = await t.app.inject({ url: '/api/%E0%A4%A' })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ code: CODE.invalidInput, msg: '请求地址格式错误', data: null })
    expect(res.headers['cache-control']).toBe('no-store')
  })
})

describe('requests Node refuses before Fastify sees them', () => {
  let port = 0
  let app: Awaited<ReturnType<typeof buildApp>>
  beforeAll(async () => {
    app = await buildApp(testConfig())
    await app.listen({ port: 0, host: '127.0.0.1' })
    const address = app.server.address()
    if (!address || typeof address === 'string') throw new Error('no address')
    port = address.port
  })
  afterAll(() => app.close())

  /** Sends raw bytes to the listening server and reads the whole answer. */
  async function rawCall(bytes: string): Promise<{ status: number; headers: string; body: string }> {
    const { text, end } = await rawExchange(`http://127.0.0.1:${port}`, bytes)
    if (end !== 'closed') throw new Error(`the connection ended with ${end}`)
    const [head = '', body = ''] = text.split('\r\n\r\n')
    return { status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body }
  }

  it('answers a bad request line with a 400 envelope', async () => {
    const res = await rawCall('NOT A REQUEST\r\n\r\n')
    expect(res.status).toBe(400)
    expect(JSON.parse(res.body)).toEqual({ code: CODE.invalidInput, msg: '请求格式错误', data: null })
    expect(res.headers).toContain('content-type: application/json; charset=utf-8')
    for (const [name, value] of Object.entries(API_HEADERS))
      expect(res.headers).toContain(`${name}: ${value}`)
  })

  it('answers headers that are too large with a 431 envelope', async () => {
    const res = await rawCall(
      `GET /api/api2/announcement HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    )
    expect(res.status).toBe(431)
    expect(JSON.parse(res.body)).toEqual({ code: CODE.payloadTooLarge, msg: '请求头过大', data: null })
  })
})

describe('a malformed multipart body', () => {
  const bodies: { name: string; type: string; payload: string }[] = [
    { name: 'no boundary', type: 'multipart/form-data', payload: 'phone=1' },
    {
      name: 'a boundary never used',
      type: 'multipart/form-data; boundary=zzz',
      payload: 'phone=13800138000',
    },
    {
      name: 'cut off inside a part',
      type: 'multipart/form-data; boundary=b',
      payload: '--b\r\nContent-Disposition: form-data; name="phone"\r\n\r\n1380',
    },
  ]
  it.each(bodies)('is a 400 naming the problem, logged without a stack: $name', async ({ type, payload }) => {
    const lines: string[] = []
    const app = await buildApp(testConfig({ LOG_LEVEL: 'info' }), undefined, {
      write: (line: string) => lines.push(line),
    } as unknown as NodeJS.WritableStream)
    try {
      const res = await app.inject({
        method: 'POST',
        url: '/api/login',
        payload,
        headers: { 'content-type': type },
      })
      expect(res.statusCode).toBe(400)
      const body = res.json()
      expect(body).toMatchObject({ code: CODE.invalidInput, data: null })
      expect(body.msg).toMatch(/^请求体格式错误（multipart：(缺少 boundary|数据不完整)）$/)
      const logged = lines.map((l) => JSON.parse(l) as { level: number; msg: string; err?: unknown })
      expect(logged.some((l) => l.level >= 50)).toBe(false)
      expect(JSON.stringify(logged)).not.toContain('"stack"')
    } finally {
      await app.close()
    }
  })
})
