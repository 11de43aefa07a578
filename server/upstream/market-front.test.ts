import { join } from 'node:path'
import { getBalance, login, userInfo } from '@shared/contract/account'
import { agentInfo, agentQrcode } from '@shared/contract/agent'
import type { Endpoint } from '@shared/contract/endpoint'
import { betHistory, currentRound, gameResults, placeBets } from '@shared/contract/games'
import { encodeBody, pathWithQuery } from '@shared/contract/request'
import {
  bindWallet,
  fundFlow,
  getDepositHistory,
  getDepositOrder,
  getPayInfoUsdt,
  getWithdrawalHistory,
  getWithdrawConfig,
  listWallets,
  usdtPay,
  withdraw,
} from '@shared/contract/wallet'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCheck } from '../../scripts/upstream-check'
import { buildApp } from '../app'
import { testConfig } from '../config'
import { ROOT_DIR } from '../paths'
import { listenOnLoopback } from '../test-support/listen'
import { type MarketFront, startMarketFront } from '../test-support/market-front'
import { createTestApp, DEMO, type TestApp } from '../test-support/test-app'
import { checkAnswer } from './contract-monitor'

/**
 * The market front (server/test-support/market-front.ts) before a real emulator, and proxy mode
 * before it with the shipped adapter: every endpoint of the player's journeys comes back in the
 * contract, and the front really speaks the market's dialect (without the adapter it does not).
 */
const ADAPTER = join(ROOT_DIR, 'fixtures/upstream/market-habits.adapter.yaml')
const ADDRESS = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7'
const admin = { 'x-emu-admin-token': 'an-admin-token-for-tests' }

let emulator: TestApp
let front: MarketFront
let proxy: FastifyInstance

beforeAll(async () => {
  emulator = await createTestApp({ GAME_CHAIN_LENGTH: '5000' })
  front = await startMarketFront({ emulator: await listenOnLoopback(emulator.app) })
  proxy = await buildApp(
    testConfig({
      MODE: 'proxy',
      UPSTREAM_URL: front.url,
      UPSTREAM_ADAPTER: ADAPTER,
      EMU_ADMIN_TOKEN: admin['x-emu-admin-token'],
    }),
  )
})
afterAll(async () => {
  await proxy?.close()
  await front?.close()
  await emulator?.close()
})

/** One call through the adapted proxy, sent as the app sends it; its answer checked against the contract. */
async function call<E extends Endpoint>(
  endpoint: E,
  input: { query?: object; body?: unknown; token?: string } = {},
  // biome-ignore lint/suspicious/noExplicitAny: the answers are read loosely here, each checked by its contract first
): Promise<any> {
  const body = encodeBody(endpoint, input.body)
  const headers: Record<string, string> = { 'idempotency-key': crypto.randomUUID() }
  if (input.token) headers.token = input.token
  let payload: string | Buffer | undefined
  if (typeof body === 'string') {
    headers['content-type'] = 'application/json'
    payload = body
  } else if (body instanceof FormData) {
    const res = new Response(body)
    headers['content-type'] = res.headers.get('content-type') ?? ''
    payload = Buffer.from(await res.arrayBuffer())
  } else if (body) {
    headers['content-type'] = 'application/x-www-form-urlencoded'
    payload = String(body)
  }
  const res = await proxy.inject({
    method: endpoint.method,
    url: pathWithQuery(endpoint, input.query),
    headers,
    ...(payload === undefined ? {} : { payload }),
  })
  expect(checkAnswer(endpoint, res.body), endpoint.id).toEqual([])
  const json = res.json()
  expect(json.code, `${endpoint.id}: ${json.msg}`).toBe(1)
  return json.data
}

describe('through the adapter', () => {
  it('every endpoint of the journeys answers in the contract', async () => {
    const session = await call(login, { body: DEMO })
    const token = session.token as string
    expect(session.user_info.has_pay_password).toBe(true)
    expect(await call(getBalance, { token, query: { player_id: session.player_id } })).toEqual({
      balance: '1000.00',
      trx_balance: '500.00',
    })
    expect((await call(userInfo, { token, query: { player_id: session.player_id } })).invite_code).toBe(
      'DEMO88',
    )

    await call(getPayInfoUsdt, { token })
    const order = await call(usdtPay, { token, body: { amount: '12.5' } })
    expect(order).toMatchObject({ amount: '12.50', status: 'pending' })
    expect((await call(getDepositOrder, { token, query: { id: order.id } })).order_no).toBe(order.order_no)
    const deposits = await call(getDepositHistory, { token, query: { page: 1, page_size: 5 } })
    expect(deposits).toMatchObject({ page: 1, page_size: 5, total: 1, has_more: false })
    expect(
      (await call(getDepositHistory, { token, query: { status: 'confirmed' } })).list.map(
        (o: { status: string }) => o.status,
      ),
    ).not.toContain('pending')

    expect((await call(listWallets, { token })).list).toEqual([])
    const wallets = await call(bindWallet, {
      token,
      body: { address: ADDRESS, label: '冷钱包', pay_password: DEMO.payPassword, is_default: '1' },
    })
    expect(wallets.list[0]).toMatchObject({ address: ADDRESS, label: '冷钱包', is_default: true })
    expect((await call(getWithdrawConfig, { token })).has_pay_password).toBe(true)
    const out = await call(withdraw, {
      token,
      body: { wallet_id: String(wallets.list[0].id), amount: '20', pay_password: DEMO.payPassword },
    })
    expect(out).toMatchObject({ order: { amount: '20.00', status: 'pending' }, balance: '979.00' })
    expect((await call(getWithdrawalHistory, { token, query: { status: 'pending' } })).total).toBe(1)

    const flows = await call(fundFlow, { token, query: { type: 'withdrawal_fee' } })
    expect(flows.list.map((f: { type: string }) => f.type)).toEqual(['withdrawal_fee'])

    const round = await call(currentRound, { query: { game: 'kuaisan' } })
    const placed = await call(placeBets, {
      token,
      body: { game: 'kuaisan', round_id: round.next.round_id, bets: [{ bet_type: 'big', amount: '3.25' }] },
    })
    expect(placed.bets).toMatchObject([{ bet_type: 'big', stake: '3.25', status: 'pending', source: 'app' }])
    emulator.clock.advance(round.ms_to_draw + 70_000)
    const results = await call(gameResults, { query: { game: 'kuaisan', page_size: 3 } })
    expect(results.list.map((r: { round_id: string }) => r.round_id)).toContain(round.next.round_id)
    const bets = await call(betHistory, { token, query: { game: 'kuaisan' } })
    expect(bets.summary.stake).toBe('3.25')
    expect(bets.list[0].result.round_id).toBe(round.next.round_id)

    expect((await call(agentInfo, { token })).invite_code).toBe('DEMO88')
    expect((await call(agentQrcode, { token, query: { size: 256 } })).image).toMatch(/^data:image\/png/)

    const watch = (await proxy.inject({ url: '/__emu/upstream/contract', headers: admin })).json().data
    expect(watch.violations).toEqual([])
  })

  it('the front speaks the market’s dialect: its paths, JSON bodies, camelCase, numbers and seconds', async () => {
    const seen = front.calls.map((c) => `${c.method} ${c.url.split('?')[0]}`)
    expect(seen).toContain('POST /api/game/bet')
    expect(seen).toContain('GET /api/recharge/order/1')
    const bet = front.calls.find((c) => c.url === '/api/game/bet')
    expect(bet?.contentType).toBe('application/json')
    expect(JSON.parse(bet?.body ?? '')).toMatchObject({
      gameCode: 'kuaisan',
      items: [{ playCode: 'big', amount: 3.25 }],
    })
    const balance = await fetch(`${front.url}/api/api/getBalance?uid=1`, {
      headers: { token: (await emulator.login()).token },
    })
    expect(await balance.json()).toEqual({
      code: 200,
      message: expect.any(String),
      data: { usdt: expect.any(Number), trx: 500 },
    })
    // Not served at the contract's path.
    expect((await fetch(`${front.url}/api/api2/withdraw/config`)).status).toBe(404)
  })

  it('upstream:check with the adapter file finds every read conforming', async () => {
    const report = await runCheck({
      url: front.url,
      credentials: DEMO,
      allowWrites: false,
      adapter: (await import('./adapter')).loadAdapter(ADAPTER),
    })
    expect(report.rows.filter((r) => r.conforms === false)).toEqual([])
    expect(report.ok).toBe(true)
  })
})
