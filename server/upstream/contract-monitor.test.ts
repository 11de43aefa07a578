import { createServer, type Server } from 'node:http'
import { PassThrough } from 'node:stream'
import { getBalance } from '@shared/contract/account'
import { CODE } from '@shared/envelope'
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { buildApp } from '../app'
import { testConfig } from '../config'
import { checkAnswer, fieldPath } from './contract-monitor'

describe('checkAnswer', () => {
  it('takes a conforming answer and names every differing field with what was expected and what came', () => {
    expect(
      checkAnswer(getBalance, '{"code":1,"msg":"成功","data":{"balance":"12.50","trx_balance":"0.00"}}'),
    ).toEqual([])
    expect(checkAnswer(getBalance, '{"code":1,"msg":"ok","data":{"balance":12.5}}')).toEqual([
      { path: 'data.balance', problem: 'expected string, got number' },
      { path: 'data.trx_balance', problem: 'expected string, got nothing' },
    ])
    expect(checkAnswer(getBalance, '<html>')).toEqual([{ path: '(answer)', problem: 'not JSON' }])
    // A refusal in the envelope conforms whatever its data.
    expect(checkAnswer(getBalance, '{"code":10001,"msg":"登录已失效!","data":null}')).toEqual([])
    expect(checkAnswer(getBalance, '{"status":1,"data":{}}')[0]?.path).toBe('code')
  })

  it('writes list positions as []', () => {
    expect(fieldPath(['data', 'list', 3, 'amount'])).toBe('data.list[].amount')
  })
})

const apps: FastifyInstance[] = []
const servers: Server[] = []
afterEach(async () => {
  for (const a of apps.splice(0)) await a.close()
  for (const s of servers.splice(0)) await new Promise((resolve) => s.close(resolve))
})

/** An upstream whose balance comes as a number and that has no announcements endpoint. */
async function differentUpstream(): Promise<string> {
  const server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json')
    if (req.url?.startsWith('/api/api/getBalance'))
      res.end('{"code":1,"msg":"ok","data":{"balance":12.5,"trx_balance":"1.00"}}')
    else {
      res.statusCode = 404
      res.end('{"code":404,"msg":"not found","data":null}')
    }
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`
}

async function proxy(env: Record<string, string>, log?: NodeJS.WritableStream) {
  const a = await buildApp(
    testConfig({ MODE: 'proxy', EMU_ADMIN_TOKEN: 'a-token-of-sixteen-chars', METRICS_PORT: '0', ...env }),
    undefined,
    log,
  )
  apps.push(a)
  return a
}
const admin = { 'x-emu-admin-token': 'a-token-of-sixteen-chars' }

describe('the contract monitor in proxy mode', () => {
  it('passes a differing answer on, counts it per field, logs each kind once, notes it in the journal and the metrics', async () => {
    const lines: string[] = []
    const stream = new PassThrough()
    stream.on('data', (c: Buffer) => lines.push(...c.toString().split('\n').filter(Boolean)))
    const a = await proxy({ UPSTREAM_URL: await differentUpstream(), LOG_LEVEL: 'warn' }, stream)
    for (let i = 0; i < 3; i++) {
      const res = await a.inject({ url: '/api/api/getBalance?player_id=1', headers: { token: 't' } })
      expect(res.json()).toMatchObject({ code: 1, data: { balance: 12.5 } })
    }
    await a.inject({ url: '/api/api2/announcement' })
    const watch = (await a.inject({ url: '/__emu/upstream/contract', headers: admin })).json().data
    expect(watch.checked).toBe(true)
    expect(watch.violations).toEqual([
      expect.objectContaining({
        endpoint: 'getBalance',
        path: 'data.balance',
        problem: 'expected string, got number',
        count: 3,
      }),
      expect.objectContaining({
        endpoint: 'announcement',
        path: '(endpoint)',
        problem: 'missing: HTTP 404',
        count: 1,
      }),
    ])
    const warned = lines.filter((l) => l.includes('differs from the contract'))
    expect(warned).toHaveLength(2)
    const journal = (
      await a.inject({ url: '/__emu/requests?path=/api/api/getBalance', headers: admin })
    ).json().data
    expect(JSON.stringify(journal)).toContain('data.balance: expected string, got number')
    expect(await a.metrics?.text()).toContain(
      'upstream_contract_violations_total{endpoint="getBalance",field="data.balance"} 3',
    )
    await a.inject({ method: 'DELETE', url: '/__emu/upstream/contract', headers: admin })
    expect(
      (await a.inject({ url: '/__emu/upstream/contract', headers: admin })).json().data.violations,
    ).toEqual([])
  })

  it('refuses a differing answer with a clear error when told to', async () => {
    const a = await proxy({ UPSTREAM_URL: await differentUpstream(), UPSTREAM_NONCONFORMING: 'refuse' })
    const res = await a.inject({ url: '/api/api/getBalance?player_id=1', headers: { token: 't' } })
    expect(res.statusCode).toBe(502)
    expect(res.json()).toMatchObject({ code: CODE.badUpstream, data: null })
    expect(res.json().msg).toContain('上游响应格式不符')
  })

  it('finds nothing to count in front of the emulator, which is the contract', async () => {
    const upstream = await buildApp(testConfig())
    apps.push(upstream)
    await upstream.listen({ port: 0, host: '127.0.0.1' })
    const a = await proxy({
      UPSTREAM_URL: `http://127.0.0.1:${(upstream.server.address() as { port: number }).port}`,
    })
    await a.inject({ url: '/api/api2/announcement' })
    await a.inject({ url: '/api/api/getBalance?player_id=1', headers: { token: 'nobody' } })
    expect(
      (await a.inject({ url: '/__emu/upstream/contract', headers: admin })).json().data.violations,
    ).toEqual([])
  })
})
