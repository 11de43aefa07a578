import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../app'
import { testConfig } from '../config'

/**
 * Proxy mode against a real upstream: a second server in emulator mode on another port, with the
 * proxy in front of it. Both are called over real sockets and must answer the same bytes.
 */
let upstream: FastifyInstance
let proxy: FastifyInstance
let upstreamUrl: string
let proxyUrl: string

const listen = async (app: FastifyInstance) => {
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  if (!address || typeof address === 'string') throw new Error('no address')
  return `http://127.0.0.1:${address.port}`
}

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
      ...urlencoded({ phone, code, password: 'secret123' }),
    })
    expect(JSON.parse(reg.text)).toMatchObject({ code: 1 })

    const form = new FormData()
    form.set('phone', phone)
    form.set('password', 'secret123')
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
      ...urlencoded({ old_password: 'secret123', new_password: 'better456' }),
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
      expect(proxied.status, path).toBeGreaterThanOrEqual(400)
    }
  })

  it('keeps the control API off without an admin token', async () => {
    const res = await call(proxyUrl, '/__emu/state')
    expect(res.status).toBe(404)
  })
})
