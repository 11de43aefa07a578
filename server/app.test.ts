import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { buildApp } from './app'
import { testConfig } from './config'
import { DEMO, multipartBody } from './test-support/test-app'

describe('the server', () => {
  it('sends security headers with a CSP that allows no inline script on pages, and a tight set on API answers', async () => {
    const app = await buildApp(testConfig())
    try {
      const page = await app.inject({ url: '/some/page' })
      const csp = String(page.headers['content-security-policy'])
      const scriptSrc = csp.split(';').find((d) => d.trim().startsWith('script-src')) ?? ''
      expect(scriptSrc.trim()).toBe("script-src 'self'")
      expect(csp).toContain("object-src 'none'")
      expect(page.headers['x-content-type-options']).toBe('nosniff')
      expect(page.headers['strict-transport-security']).toBeDefined()

      const api = await app.inject({ url: '/api/api2/announcement' })
      expect(api.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'")
      expect(api.headers['x-content-type-options']).toBe('nosniff')
      expect(api.headers['cross-origin-resource-policy']).toBe('same-origin')
      expect(api.headers['cache-control']).toBe('no-store')
    } finally {
      await app.close()
    }
  })

  it('answers an unexpected error with the envelope and no stack', async () => {
    const app = await buildApp(testConfig())
    app.get('/api/test-only/boom', async () => {
      throw new Error('database password is hunter2')
    })
    try {
      const res = await app.inject({ url: '/api/test-only/boom' })
      expect(res.statusCode).toBe(500)
      expect(res.json()).toEqual({ code: 50000, msg: '服务器繁忙，请稍后再试', data: null })
      expect(res.body).not.toContain('hunter2')
    } finally {
      await app.close()
    }
  })

  it('answers unknown API paths with a 404 envelope', async () => {
    const app = await buildApp(testConfig())
    try {
      const res = await app.inject({ url: '/api/nope' })
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ code: 40400, msg: '接口不存在', data: null })
    } finally {
      await app.close()
    }
  })

  it('keeps the token header and passwords out of the log', async () => {
    const lines: string[] = []
    const stream = new PassThrough()
    stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)))
    const app = await buildApp(testConfig({ LOG_LEVEL: 'trace' }), undefined, stream)
    try {
      const { payload, headers } = multipartBody({ phone: DEMO.phone, password: DEMO.password })
      const login = await app.inject({ method: 'POST', url: '/api/login', payload, headers })
      const token = login.json().data.token as string
      await app.inject({ url: '/api/users/info?player_id=1', headers: { token } })
      const wrong = multipartBody({ phone: DEMO.phone, password: 'Wrong-Secret-778' })
      await app.inject({ method: 'POST', url: '/api/login', payload: wrong.payload, headers: wrong.headers })
      // Secrets a client put in the query string: the request line keeps the field, not the value.
      await app.inject({ url: `/api/api/getBalance?token=${token}&password=Query-Secret-31&x=1` })
      await app.inject({ url: '/__emu/sms?phone=13800138000&PAY_PASSWORD=Query-Secret-32' })
      app.log.info({ body: { password: 'Wrong-Secret-778', token } }, 'a line with secrets in it')
      app.log.info({ headers: { token, cookie: 'sid=Cookie-Secret-5' } }, 'a line with secret headers')
      app.log.info({ pay_password: '918273', old_password: 'Old-Secret-9' }, 'fields logged alone')
      const log = lines.join('\n')
      expect(log).toContain('/api/users/info')
      expect(log).toContain('a line with secrets in it')
      expect(log).not.toContain(token)
      expect(log).not.toContain('Wrong-Secret-778')
      expect(log).toContain('a line with secret headers')
      for (const secret of [
        'Cookie-Secret-5',
        '918273',
        'Old-Secret-9',
        'Query-Secret-31',
        'Query-Secret-32',
      ])
        expect(log).not.toContain(secret)
      expect(log).toContain('/api/api/getBalance?token=[redacted]&password=[redacted]&x=1')
    } finally {
      await app.close()
    }
  })

  it('finishes in-flight requests on shutdown, then closes the database', async () => {
    const app = await buildApp(testConfig())
    await app.listen({ port: 0, host: '127.0.0.1' })
    const address = app.server.address()
    if (!address || typeof address === 'string') throw new Error('no address')
    const base = `http://127.0.0.1:${address.port}`
    await app.inject({
      method: 'POST',
      url: '/__emu/faults',
      payload: { match: { path: '/api/api2/announcement' }, action: { type: 'delay', ms: 300 } },
    })
    const arrived = new Promise((r) => app.server.once('request', r))
    const inFlight = fetch(`${base}/api/api2/announcement`)
    await arrived
    const closed = app.close()
    const res = await inFlight
    expect(res.status).toBe(200)
    expect((await res.json()).code).toBe(1)
    await closed
    expect(app.emu.db.open).toBe(false)
  })

  it('keys the rate limits on the client address that TRUST_PROXY vouches for', async () => {
    /** How many of 3 logins from each of two clients behind one proxy were rate-limited. */
    async function limited(env: Record<string, string>) {
      const app = await buildApp(testConfig({ RATE_LIMIT_LOGIN: '2', ...env }))
      try {
        const counts: number[] = []
        for (const client of ['203.0.113.7', '198.51.100.9']) {
          let n = 0
          for (let i = 0; i < 3; i++) {
            const { payload, headers } = multipartBody({ phone: DEMO.phone, password: 'wrong-password' })
            const res = await app.inject({
              method: 'POST',
              url: '/api/login',
              payload,
              remoteAddress: '10.0.0.2',
              // A client's own claim first, then the address the proxy at 10.0.0.2 saw.
              headers: { ...headers, 'x-forwarded-for': `127.0.0.1, ${client}` },
            })
            if (res.statusCode === 429) n++
          }
          counts.push(n)
        }
        return counts
      } finally {
        await app.close()
      }
    }
    // Trusted: each client has its own budget, and the client's own claim is not believed.
    expect(await limited({ TRUST_PROXY: '10.0.0.0/8' })).toEqual([1, 1])
    expect(await limited({ TRUST_PROXY: '1' })).toEqual([1, 1])
    // Not trusted: everyone behind the proxy is one address.
    expect(await limited({})).toEqual([1, 3])
  })
})
