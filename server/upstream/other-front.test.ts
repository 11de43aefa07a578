import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { announcement, getBalance, login, userInfo } from '@shared/contract/account'
import type { Endpoint } from '@shared/contract/endpoint'
import { currentRound, gameResults } from '@shared/contract/games'
import { encodeBody, pathWithQuery } from '@shared/contract/request'
import { fundFlow, listWallets, usdtPay } from '@shared/contract/wallet'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse, stringify } from 'yaml'
import { runCheck } from '../../scripts/upstream-check'
import { buildApp } from '../app'
import { testConfig } from '../config'
import { ROOT_DIR } from '../paths'
import { listenOnLoopback } from '../test-support/listen'
import { type OtherFront, startOtherFront } from '../test-support/other-front'
import { createTestApp, DEMO, type TestApp } from '../test-support/test-app'
import { loadAdapter } from './adapter'
import { checkAnswer } from './contract-monitor'

/**
 * The second test backend (server/test-support/other-front.ts: another envelope, a bearer token, an
 * appId on every call, cents, Beijing-time text, Y/N, bare lists, comma-separated numbers…) before a
 * real emulator, and proxy mode before it with fixtures/upstream/other-habits.adapter.yaml.
 */
const ADAPTER = join(ROOT_DIR, 'fixtures/upstream/other-habits.adapter.yaml')
const admin = { 'x-emu-admin-token': 'an-admin-token-for-tests' }

let emulator: TestApp
let emulatorUrl: string
let front: OtherFront
let proxy: FastifyInstance

beforeAll(async () => {
  emulator = await createTestApp({ GAME_CHAIN_LENGTH: '5000' })
  emulatorUrl = await listenOnLoopback(emulator.app)
  front = await startOtherFront({ emulator: emulatorUrl })
  proxy = await buildApp(
    testConfig({
      MODE: 'proxy',
      UPSTREAM_URL: front.url,
      UPSTREAM_ADAPTER: ADAPTER,
      EMU_ADMIN_TOKEN: admin['x-emu-admin-token'],
    }),
  )
  // Drawn rounds, for the results and the verify read.
  await fetch(`${emulatorUrl}/api/games/round?game=kuaisan`)
  emulator.clock.advance(120_000)
})
afterAll(async () => {
  await proxy?.close()
  await front?.close()
  await emulator?.close()
})

/** One call through the adapted proxy as the app sends it, checked against the contract. */
async function call(
  endpoint: Endpoint,
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

/** The same call on the emulator itself: the reference. */
async function direct(endpoint: Endpoint, token: string, query?: object) {
  const res = await fetch(`${emulatorUrl}${pathWithQuery(endpoint, query)}`, { headers: { token } })
  return ((await res.json()) as { data: Record<string, unknown> }).data
}

describe('proxy mode with the adapter', () => {
  it('answers every translated endpoint in the contract, with the emulator’s values', async () => {
    const session = await call(login, { body: { phone: DEMO.phone, password: DEMO.password } })
    const token = session.token as string
    expect(session.user_info).toMatchObject({ has_pay_password: true, vip_level: 0, invite_code: 'DEMO88' })
    const query = { player_id: session.player_id }
    expect(await call(getBalance, { token, query })).toEqual(await direct(getBalance, token, query))
    const profile = await call(userInfo, { token, query })
    const own = await direct(userInfo, token, query)
    // Times travel as text to the second.
    expect(profile).toEqual({
      ...own,
      vip_level: 0,
      created_at: Math.floor((own.created_at as number) / 1000) * 1000,
    })

    const notices = await call(announcement)
    const reference = (await direct(announcement, token)).list as { pinned: boolean; published_at: number }[]
    expect(notices.list.map((n: { pinned: boolean }) => n.pinned)).toEqual(reference.map((n) => n.pinned))
    expect(notices.list[0].published_at).toBe(Math.floor((reference[0]?.published_at ?? 0) / 1000) * 1000)

    // A top-up order: a POST the other backend takes at our path, with the idempotency key renamed.
    await call(usdtPay, { token, body: { amount: '12.5' } })
    const flows = await call(fundFlow, { token, query: { page: 1, page_size: 2 } })
    const ownFlows = await direct(fundFlow, token, { page: 1, page_size: 2 })
    expect(flows).toMatchObject({ page: 1, page_size: 2, total: ownFlows.total, has_more: ownFlows.has_more })
    const pick = (rows: { id: number; type: string; amount: string; balance_after: string }[]) =>
      rows.map(({ id, type, amount, balance_after }) => ({ id, type, amount, balance_after }))
    expect(pick(flows.list)).toEqual(pick(ownFlows.list as never))
    const topups = await call(fundFlow, { token, query: { type: 'topup' } })
    expect(topups.list.every((f: { type: string }) => f.type === 'topup')).toBe(true)

    const results = await call(gameResults, { query: { game: 'kuaisan', page_size: 3 } })
    const ownResults = await direct(gameResults, token, { game: 'kuaisan', page_size: 3 })
    expect(results.list.map((r: { numbers: number[] }) => r.numbers)).toEqual(
      (ownResults.list as { numbers: number[] }[]).map((r) => r.numbers),
    )
    await call(currentRound, { query: { game: 'kuaisan' } })
    expect(await call(listWallets, { token })).toEqual({ list: [], max_count: 5 })

    const watch = (await proxy.inject({ url: '/__emu/upstream/contract', headers: admin })).json().data
    expect(watch.violations).toEqual([])
  })

  it('the backend really speaks its dialect: bearer token, X-Request-Id, appId, its paths and JSON', async () => {
    const balance = front.calls.find((c) => c.url.startsWith('/api/api/getBalance'))
    expect(balance?.authorization).toMatch(/^Bearer \S+$/)
    expect(balance?.url).toMatch(/[?&]uid=\d+/)
    expect(balance?.url).toMatch(/[?&]appId=h5/)
    const order = front.calls.find((c) => c.url === '/api/usdtpay')
    expect(order?.requestId).toMatch(/^[0-9a-f-]{36}$/)
    expect(new URLSearchParams(order?.body).get('appId')).toBe('h5')
    const loginCall = front.calls.find((c) => c.url === '/api/passport/login')
    expect(JSON.parse(loginCall?.body ?? '')).toEqual({
      account: DEMO.phone,
      password: DEMO.password,
      appId: 'h5',
    })
    // Its own answer, untranslated.
    const token = (await emulator.login()).token
    const raw = await fetch(`${front.url}/api/api/getBalance?uid=1&appId=h5`, {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(await raw.json()).toEqual({
      success: true,
      errCode: '0',
      errMsg: expect.any(String),
      result: { balance: expect.any(Number), trxBalance: '500.00' },
    })
    const lost = await fetch(`${front.url}/api/api/getBalance?uid=1&appId=h5`, { headers: { token } })
    expect(await lost.json()).toMatchObject({ success: false, errCode: 'TOKEN_INVALID' })
  })
})

describe('upstream:check against the other backend', () => {
  it('with the adapter file: every call it makes conforms, reads and safe writes', async () => {
    const report = await runCheck({
      url: front.url,
      credentials: DEMO,
      allowWrites: false,
      adapter: loadAdapter(ADAPTER),
    })
    expect(report.rows.filter((r) => r.conforms === false)).toEqual([])
    expect(report.ok).toBe(true)
    expect(report.rows.find((r) => r.step === 'fundFlow')?.note).toMatch(/the adapter covers \d+ difference/)
    // The safe writes too (bind and delete an address, set a setting back…).
    const writes = await runCheck({
      url: front.url,
      credentials: DEMO,
      allowWrites: true,
      adapter: loadAdapter(ADAPTER),
    })
    expect(writes.rows.filter((r) => r.conforms === false)).toEqual([])
    expect(writes.rows.find((r) => r.step === 'bindWallet')).toMatchObject({
      outcome: 'answered',
      conforms: true,
    })
    expect(writes.ok).toBe(true)
  })

  it('without it: every call is named, with the envelope’s fields, what the contract expects and what came', async () => {
    const report = await runCheck({ url: front.url, credentials: DEMO, allowWrites: false })
    expect(report.ok).toBe(false)
    const called = report.rows.filter((r) => r.outcome !== 'skipped')
    // The login is not at the contract's path; so no session, and the reads that need one are skipped.
    expect(called.find((r) => r.step === 'login')?.mismatches).toEqual([
      { path: '(http status)', expected: '2xx', got: '404' },
      { path: '(body)', expected: 'a JSON envelope {code, msg, data}', got: 'not JSON: string "Not Found"' },
    ])
    expect(report.rows.find((r) => r.step === 'fundFlow')?.note).toBe('no session: the login failed')
    // The other endpoints it serves at its own paths: not found at the contract's.
    for (const step of ['announcement', 'gameResults']) {
      expect(called.find((r) => r.step === step)?.mismatches, step).toEqual(
        called.find((r) => r.step === 'login')?.mismatches,
      )
    }
    // Every other call: refused for want of the appId, in an envelope the contract does not know.
    const others = called.filter((r) => !['login', 'announcement', 'gameResults'].includes(r.step))
    expect(others.length).toBeGreaterThan(10)
    for (const row of others) {
      expect(row.conforms, row.step).toBe(false)
      expect(row.mismatches, row.step).toEqual([
        { path: 'code', expected: 'number', got: 'missing' },
        { path: 'data', expected: 'a value', got: 'missing' },
        { path: 'success', expected: 'no such field in the contract', got: 'boolean false', extra: true },
        {
          path: 'errCode',
          expected: 'no such field in the contract',
          got: 'string "APP_ID_REQUIRED"',
          extra: true,
        },
        {
          path: 'errMsg',
          expected: 'no such field in the contract',
          got: 'string "缺少 appId"',
          extra: true,
        },
        { path: 'result', expected: 'no such field in the contract', got: 'null', extra: true },
      ])
    }
  })

  it('with only the calls adapted (envelope, headers, appId, paths, names): every field of every answer that differs is named', async () => {
    // The shipped file without the answers' translations (the login's kept, for the session).
    const file = parse(readFileSync(ADAPTER, 'utf8')) as { endpoints: Record<string, { answer?: unknown }> }
    for (const [id, entry] of Object.entries(file.endpoints)) if (id !== 'login') delete entry.answer
    const partial = loadAdapter('calls-only.yaml', stringify(file))
    const report = await runCheck({ url: front.url, credentials: DEMO, allowWrites: false, adapter: partial })
    const failing = Object.fromEntries(
      report.rows
        .filter((r) => r.conforms === false)
        .map((r) => [r.step, r.mismatches.map((m) => `${m.path}: expected ${m.expected}, got ${m.got}`)]),
    )
    const text = (s: string) => `string ${JSON.stringify(s)}`
    const extra = (path: string, got: unknown) =>
      typeof got === 'string' && got.startsWith('/')
        ? expect.stringMatching(
            new RegExp(`^data\\.${path}: expected no such field in the contract, got ${got.slice(1, -1)}$`),
          )
        : `data.${path}: expected no such field in the contract, got ${got}`
    const beijingText = '/string "\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}"/'
    const pageFields = [
      'data.list: expected array, got missing',
      'data.page: expected number, got missing',
      'data.page_size: expected number, got missing',
      'data.total: expected number, got missing',
      'data.has_more: expected boolean, got missing',
    ]
    expect(failing).toEqual({
      userInfo: [
        'data.player_id: expected number, got missing',
        'data.nickname: expected string, got missing',
        'data.phone: expected string, got missing',
        'data.invite_code: expected string, got missing',
        'data.has_pay_password: expected boolean, got missing',
        'data.vip_level: expected number, got missing',
        'data.created_at: expected number, got missing',
        extra('uid', 'number 1'),
        extra('nickName', text('演示玩家')),
        extra('mobile', text('138***8000')),
        extra('inviteCode', text('DEMO88')),
        extra('payPwdSet', text('Y')),
        extra('registerTime', beijingText),
      ],
      getBalance: [
        'data.balance: expected string, got number 100000',
        'data.trx_balance: expected string, got missing',
        extra('trxBalance', text('500.00')),
      ],
      announcement: ['data: expected object, got array (3 items)'],
      listWallets: ['data: expected object, got array (0 items)'],
      fundFlow: [
        ...pageFields,
        extra('records', 'array (2 items)'),
        extra('totalCount', 'number 2'),
        extra('pageNum', 'number 1'),
        extra('pageSize', 'number 5'),
      ],
      gameResults: [
        ...pageFields,
        extra('records', '/array \\(\\d+ items\\)/'),
        extra('totalCount', '/number \\d+/'),
      ],
    })
    // Every other endpoint the walk reads has our fields at our paths: it conforms.
    expect(report.rows.filter((r) => r.conforms === true).length).toBeGreaterThan(15)
  })
})
