import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getBalance, login } from '@shared/contract/account'
import { fundFlow } from '@shared/contract/wallet'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../app'
import { testConfig } from '../config'
import { ROOT_DIR } from '../paths'
import { type MarketUpstream, startMarketUpstream } from '../test-support/market-upstream'
import { multipartBody } from '../test-support/test-app'
import { checkAnswer } from './contract-monitor'

/**
 * Proxy mode in front of a backend with this market's field habits, through the shipped adapter:
 * the app's calls go out in the upstream's shape and come back in the contract's.
 */
let upstream: MarketUpstream
let adapted: FastifyInstance
let plain: FastifyInstance
const admin = { 'x-emu-admin-token': 'an-admin-token-for-tests' }

beforeAll(async () => {
  upstream = await startMarketUpstream()
  const env = { MODE: 'proxy', UPSTREAM_URL: upstream.url, EMU_ADMIN_TOKEN: admin['x-emu-admin-token'] }
  adapted = await buildApp(
    testConfig({ ...env, UPSTREAM_ADAPTER: join(ROOT_DIR, 'fixtures/upstream/market-habits.adapter.yaml') }),
  )
  plain = await buildApp(testConfig(env))
})
afterAll(async () => {
  await adapted.close()
  await plain.close()
  await upstream.close()
})

async function logIn(app: FastifyInstance) {
  const { payload, headers } = multipartBody({ phone: '13800138000', password: 'demo1234' })
  return app.inject({ method: 'POST', url: '/api/login', payload, headers })
}

/** The upstream calls since `from`, without the readiness probe's (the announcements, asked at start). */
const callsSince = (from: number) =>
  upstream.calls
    .slice(from)
    .map((c) => c.url)
    .filter((url) => url !== '/api/api2/announcement')

describe('the push channel in proxy mode', () => {
  it('is served here, never forwarded: its session is checked with one call to the upstream’s user info, through the adapter', async () => {
    let before = upstream.calls.length
    const lost = await adapted.inject({
      method: 'GET',
      url: '/api/stream?player_id=9',
      headers: { token: 'not-a-session' },
    })
    // The upstream's 401 is the session-lost envelope, as for any call.
    expect(lost.json()).toMatchObject({ code: 10001 })
    expect(callsSince(before)).toEqual(['/api/user/info?uid=9'])
    before = upstream.calls.length
    // An upstream without the user-info endpoint: answered as not offered (the app polls).
    const res = await plain.inject({
      method: 'GET',
      url: '/api/stream?player_id=9',
      headers: { token: 'mk-7f3c2a' },
    })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toMatchObject({ code: 40400 })
    expect(callsSince(before)).toEqual(['/api/users/info?player_id=9'])
  })
})

describe('with the adapter', () => {
  it('logs in: the app’s multipart form goes out as the upstream’s JSON, the answer comes back in the contract', async () => {
    const res = await logIn(adapted)
    expect(checkAnswer(login, res.body)).toEqual([])
    expect(res.json()).toMatchObject({
      code: 1,
      msg: '登录成功',
      data: {
        token: 'mk-7f3c2a',
        player_id: 9,
        expires_at: 1_795_886_400_000,
        user_info: { has_pay_password: true },
      },
    })
    const call = upstream.calls.at(-1)
    expect(call).toMatchObject({ method: 'POST', url: '/api/user/login', contentType: 'application/json' })
    expect(JSON.parse(call?.body ?? '')).toEqual({ mobile: '13800138000', pwd: 'demo1234' })
  })

  it('reads the balance and a page of the fund flow as the contract says', async () => {
    const token = (await logIn(adapted)).json().data.token as string
    const balance = await adapted.inject({ url: '/api/api/getBalance?player_id=9', headers: { token } })
    expect(checkAnswer(getBalance, balance.body)).toEqual([])
    expect(balance.json().data).toEqual({ balance: '65.85', trx_balance: '12.00' })
    expect(upstream.calls.at(-1)?.url).toBe('/api/api/getBalance?uid=9')

    const flows = await adapted.inject({ url: '/api/api2/fund-flow?page=1&page_size=2', headers: { token } })
    expect(checkAnswer(fundFlow, flows.body)).toEqual([])
    expect(flows.json().data).toMatchObject({
      page: 1,
      page_size: 2,
      total: 3,
      has_more: true,
      list: [
        { id: 3, type: 'payout', amount: '19.60', created_at: 1_795_799_940_000 },
        { id: 2, type: 'bet', amount: '-10.00' },
      ],
    })
    expect(upstream.calls.at(-1)?.url).toBe('/api/wallet/flows?page=1&pageSize=2')
  })

  it('answers the upstream’s lost session as the contract’s 10001', async () => {
    const res = await adapted.inject({ url: '/api/api/getBalance?player_id=9', headers: { token: 'stale' } })
    expect(res.json()).toEqual({ code: 10001, msg: '请先登录', data: null })
  })

  it('leaves nothing for the contract watch to count', async () => {
    const watch = (await adapted.inject({ url: '/__emu/upstream/contract', headers: admin })).json().data
    expect(watch.violations.filter((v: { problem: string }) => !v.problem.startsWith('missing'))).toEqual([])
  })
})

describe('without it', () => {
  it('the same upstream breaks the contract, and the watch names each difference', async () => {
    // Its fund flow lives at another path: the contract's path is missing there.
    await plain.inject({ url: '/api/api2/fund-flow?page=1', headers: { token: 'mk-7f3c2a' } })
    const balance = await plain.inject({
      url: '/api/api/getBalance?player_id=9',
      headers: { token: 'mk-7f3c2a' },
    })
    expect(balance.json().code).toBe(4002) // its own code: the app would show its message
    const names = (await plain.inject({ url: '/__emu/upstream/contract', headers: admin }))
      .json()
      .data.violations.map((v: { endpoint: string; path: string }) => `${v.endpoint} ${v.path}`)
    expect(names).toContain('fundFlow (endpoint)')
  })
})

describe('headers the file renames', () => {
  it('go out under the upstream’s names, or as fields of the call', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adapter-'))
    const file = join(dir, 'headers.yaml')
    writeFileSync(file, 'headers:\n  rename:\n    token: { field: token }\n  set: { X-Channel: h5 }\n')
    const app = await buildApp(
      testConfig({ MODE: 'proxy', UPSTREAM_URL: upstream.url, UPSTREAM_ADAPTER: file }),
    )
    try {
      await app.inject({ url: '/api/api/getBalance?player_id=9', headers: { token: 'mk-7f3c2a' } })
      expect(upstream.calls.at(-1)?.url).toBe('/api/api/getBalance?player_id=9&token=mk-7f3c2a')
      expect(upstream.calls.at(-1)?.headers).toMatchObject({ 'x-channel': 'h5' })
      expect(upstream.calls.at(-1)?.headers).not.toHaveProperty('token')
    } finally {
      await app.close()
      rmSync(dir, { recursive: true })
    }
  })
})

describe('a bad adapter file', () => {
  it('stops the start, naming its line', async () => {
    await expect(
      buildApp(
        testConfig({
          MODE: 'proxy',
          UPSTREAM_URL: upstream.url,
          UPSTREAM_ADAPTER: join(ROOT_DIR, 'package.json'),
        }),
      ),
    ).rejects.toThrow(/package\.json:2: \(file\): Unrecognized key/)
  })
})
