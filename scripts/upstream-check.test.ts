import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { login } from '@shared/contract/account'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../server/app'
import { testConfig } from '../server/config'
import { EmuClock } from '../server/emulator/clock'
import { ROOT_DIR } from '../server/paths'
import { startMarketUpstream } from '../server/test-support/market-upstream'
import {
  type CheckReport,
  type CheckRow,
  loadAdapter,
  main,
  parseCheckArgs,
  runCheck,
} from './upstream-check'
import { walkPlan } from './upstream-conformance'

const DEMO = { phone: '13800138000', password: 'demo1234', payPassword: '123456' }

let emulator: FastifyInstance
let emulatorUrl: string

beforeAll(async () => {
  const clock = new EmuClock()
  emulator = await buildApp(
    testConfig({ RATE_LIMIT_LOGIN: '10000', RATE_LIMIT_SMS: '10000', GAME_CHAIN_LENGTH: '5000' }),
    clock,
  )
  await emulator.listen({ port: 0, host: '127.0.0.1' })
  emulatorUrl = `http://127.0.0.1:${(emulator.server.address() as AddressInfo).port}`
  // Drawn rounds, so that the verify read has one to verify.
  await fetch(`${emulatorUrl}/api/games/round?game=qukuai`)
  clock.advance(60_000)
  // A top-up order, so that the one read that needs an order id has one to read.
  const loggedIn = await fetch(`${emulatorUrl}/api/login`, {
    method: 'POST',
    body: (() => {
      const form = new FormData()
      form.set('phone', DEMO.phone)
      form.set('password', DEMO.password)
      return form
    })(),
  })
  const token = ((await loggedIn.json()) as { data: { token: string } }).data.token
  const order = await fetch(`${emulatorUrl}/api/usdtpay`, {
    method: 'POST',
    headers: { token, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'amount=100',
  })
  expect(((await order.json()) as { code: number }).code).toBe(1)
})

afterAll(async () => {
  await emulator.close()
})

const row = (report: CheckReport, step: string): CheckRow => {
  const found = report.rows.find((r) => r.step === step)
  if (!found) throw new Error(`no row ${step}`)
  return found
}

describe('upstream:check against the emulator', () => {
  it('calls every read and every safe write, and every answer conforms', async () => {
    const report = await runCheck({ url: emulatorUrl, credentials: DEMO, allowWrites: true })
    const failing = report.rows.filter((r) => r.conforms === false)
    expect(failing).toEqual([])
    expect(report.ok).toBe(true)
    // Skipped: only the endpoints the walk never calls.
    const never = walkPlan()
      .filter((s) => s.kind === 'never')
      .map((s) => s.name)
    expect(report.rows.filter((r) => r.outcome === 'skipped').map((r) => r.step)).toEqual(never)
    expect(report.called).toBe(report.rows.length - never.length)
    // The undos ran: the addresses bound by the walk are gone again.
    expect(row(report, 'deleteWallet').conforms).toBe(true)
    expect(row(report, 'deleteBetAddress').conforms).toBe(true)
  })

  it('without --allow-writes, lists the writes as skipped', async () => {
    const report = await runCheck({ url: emulatorUrl, credentials: DEMO, allowWrites: false })
    expect(report.ok).toBe(true)
    const bind = row(report, 'bindWallet')
    expect(bind.outcome).toBe('skipped')
    expect(bind.note).toContain('--allow-writes')
    expect(report.rows.filter((r) => r.kind === 'write').every((r) => r.outcome === 'skipped')).toBe(true)
  })

  it('prints JSON for CI and exits 0 from the command line', async () => {
    let out = ''
    const status = await main(
      ['--url', emulatorUrl, '--phone', DEMO.phone, '--password', DEMO.password, '--json'],
      (text) => {
        out += text
      },
    )
    expect(status).toBe(0)
    const report = JSON.parse(out) as CheckReport
    expect(report.ok).toBe(true)
    expect(row(report, 'getBalance')).toMatchObject({
      outcome: 'answered',
      status: 200,
      code: 1,
      conforms: true,
    })
  })
})

// ── an upstream whose answers differ ─────────────────────────────────────────────────────────────

type Envelope = {
  code: number
  msg?: string
  data: Record<string, unknown> & { list?: Record<string, unknown>[] }
}

/** What the differing upstream changes in the emulator's answers, by path. */
const CHANGES: Record<string, (body: Envelope) => void> = {
  '/api/api/getBalance': (b) => {
    b.data.money = b.data.balance
    delete b.data.balance
  },
  '/api/users/info': (b) => {
    b.data.player_id = String(b.data.player_id)
  },
  '/api/api2/announcement': (b) => {
    for (const item of b.data.list ?? []) item.pinned = item.pinned ? 1 : 0
  },
  '/api/games/list': (b) => {
    delete b.msg
  },
}

/** Forwards to the emulator, changes some answers and answers 404 pages for one path. */
function differingUpstream(target: string, seen: string[]): Promise<{ server: Server; url: string }> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const url = new URL(req.url ?? '/', target)
    seen.push(`${req.method} ${url.pathname}`)
    if (url.pathname === '/api/protection/limits') {
      res.writeHead(404, { 'content-type': 'text/html' })
      res.end('<html>Not Found</html>')
      return
    }
    const headers: IncomingHttpHeaders = { ...req.headers }
    for (const name of ['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive'])
      delete headers[name]
    const upstream = await fetch(url, {
      method: req.method ?? 'GET',
      headers: headers as Record<string, string>,
      body: chunks.length > 0 ? Buffer.concat(chunks) : null,
    })
    let text = await upstream.text()
    const change = CHANGES[url.pathname]
    if (change) {
      const body = JSON.parse(text) as Envelope
      change(body)
      text = JSON.stringify(body)
    }
    res.writeHead(upstream.status, {
      'content-type': upstream.headers.get('content-type') ?? 'application/json',
    })
    res.end(text)
  })
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })
    })
  })
}

describe('upstream:check against an upstream whose fields differ', () => {
  let proxy: { server: Server; url: string }
  const seen: string[] = []

  beforeAll(async () => {
    proxy = await differingUpstream(emulatorUrl, seen)
  })
  afterAll(async () => {
    await new Promise((resolve) => proxy.server.close(resolve))
  })

  it('names every difference, and calls no write without --allow-writes', async () => {
    seen.length = 0
    const report = await runCheck({ url: proxy.url, credentials: DEMO, allowWrites: false })
    expect(report.ok).toBe(false)

    const failing = Object.fromEntries(
      report.rows.filter((r) => r.conforms === false).map((r) => [r.step, r.mismatches]),
    )
    expect(failing).toEqual({
      getBalance: [
        { path: 'data.balance', expected: 'string', got: 'missing' },
        {
          path: 'data.money',
          expected: 'no such field in the contract',
          got: expect.stringMatching(/^string "/),
          extra: true,
        },
      ],
      userInfo: [
        { path: 'data.player_id', expected: 'number', got: expect.stringMatching(/^string "\d+"$/) },
      ],
      announcement: [
        {
          path: 'data.list[0].pinned',
          expected: 'boolean',
          got: expect.stringMatching(/^number [01]$/),
          times: expect.any(Number),
        },
      ],
      listGames: [{ path: 'msg', expected: 'string (or message)', got: 'missing' }],
      protectionLimits: [
        { path: '(http status)', expected: '2xx', got: '404' },
        {
          path: '(body)',
          expected: 'a JSON envelope {code, msg, data}',
          got: 'not JSON: string "<html>Not Found</html>"',
        },
      ],
    })
    expect(row(report, 'protectionLimits')).toMatchObject({ outcome: 'answered', status: 404 })
    expect(seen.filter((s) => !s.startsWith('GET '))).toEqual(['POST /api/login'])
  })

  it('prints the table with each mismatch under its endpoint, and exits 1', async () => {
    let out = ''
    const status = await main(
      ['--url', proxy.url, '--phone', DEMO.phone, '--password', DEMO.password],
      (t) => {
        out += t
      },
    )
    expect(status).toBe(1)
    const lines = out.split('\n')
    const at = lines.findIndex((l) => l.startsWith('getBalance '))
    expect(lines[at]).toMatch(/GET \/api\/api\/getBalance\s+HTTP 200 \/ code 1\s+NO$/)
    expect(lines[at + 1]).toBe('    data.balance: expected string, got missing')
    expect(lines[at + 2]).toMatch(
      /^ {4}data\.money: not in the contract \(the app ignores it\), got string "/,
    )
    expect(out).toContain('    (http status): expected 2xx, got 404')
    expect(out).toMatch(/bindWallet .* skipped .*\n {4}a write \(.*\): run with --allow-writes/)
    expect(out).toMatch(/\d+ called, \d+ conform, 5 do not, \d+ skipped\n$/)
  })

  it('with the adapter file, sends calls in the upstream’s shape and judges the translated answers', async () => {
    const market = await startMarketUpstream()
    try {
      const adapter = loadAdapter(join(ROOT_DIR, 'fixtures/upstream/market-habits.adapter.yaml'))
      const report = await runCheck({ url: market.url, credentials: DEMO, allowWrites: false, adapter })
      for (const step of ['login', 'getBalance', 'fundFlow']) {
        expect(row(report, step).conforms, step).toBe(true)
        expect(row(report, step).note, step).toMatch(/the adapter covers \d+ difference/)
      }
      // Endpoints the small backend does not have stay named.
      expect(row(report, 'announcement').conforms).toBe(false)
      // Without the adapter the same backend fails where the adapter covered it.
      const bare = await runCheck({ url: market.url, credentials: DEMO, allowWrites: false })
      expect(row(bare, 'login').conforms).toBe(false)
    } finally {
      await market.close()
    }
  })
})

describe('parseCheckArgs', () => {
  it('needs the URL and the account, and reads the flags', () => {
    expect(parseCheckArgs(['--phone', '1', '--password', 'p'])).toEqual({
      error: '--url must be an http(s) URL',
    })
    expect(parseCheckArgs(['--url', 'http://x', '--password', 'p'])).toEqual({ error: '--phone is required' })
    expect(
      parseCheckArgs(['--url', 'http://x', '--phone', '1', '--password', 'p', '--timeout', 'soon']),
    ).toEqual({
      error: '--timeout must be a positive number of milliseconds',
    })
    expect('error' in parseCheckArgs(['--url', 'http://x', '--bogus'])).toBe(true)
    expect(
      parseCheckArgs([
        '--url',
        'https://up.example',
        '--phone',
        '1',
        '--password',
        'p',
        '--pay-password',
        '123456',
        '--allow-writes',
        '--json',
        '--adapter',
        'a.ts',
      ]),
    ).toEqual({
      url: 'https://up.example',
      credentials: { phone: '1', password: 'p', payPassword: '123456' },
      allowWrites: true,
      json: true,
      adapterFile: 'a.ts',
    })
  })

  it('with --adapter alone, checks the file only: valid, or each mistake with its line', async () => {
    const market = join(ROOT_DIR, 'fixtures/upstream/market-habits.adapter.yaml')
    expect(parseCheckArgs(['--adapter', market])).toEqual({ adapterOnly: market })
    expect(parseCheckArgs(['--adapter', market, '--json'])).toEqual({ error: '--json needs --url' })
    let out = ''
    expect(await main(['--adapter', market], (t) => (out += t))).toBe(0)
    expect(out).toBe(`${market}: valid (19 endpoints adapted)\n`)
    out = ''
    expect(await main(['--adapter', join(ROOT_DIR, 'package.json')], (t) => (out += t))).toBe(2)
    expect(out).toMatch(/^the adapter file is not valid:\n.*package\.json:2: \(file\): Unrecognized keys/)
    // With --url too, a bad file stops the check before any call.
    out = ''
    const bad = ['--url', 'http://127.0.0.1:9', '--phone', '1', '--password', 'p']
    expect(await main([...bad, '--adapter', join(ROOT_DIR, 'package.json')], (t) => (out += t))).toBe(2)
    expect(out).toContain('package.json:2:')
  })

  it('exits 2 with the usage on bad arguments', async () => {
    let out = ''
    expect(await main(['--url', 'nope'], (t) => (out += t))).toBe(2)
    expect(out).toContain('usage: npm run upstream:check')
  })
})

describe('loadAdapter (--adapter FILE)', () => {
  it('reads nothing without a file, and the same adapter file as proxy mode with one', () => {
    expect(loadAdapter(undefined)).toBeUndefined()
    const adapter = loadAdapter(join(ROOT_DIR, 'fixtures/upstream/market-habits.adapter.yaml'))
    expect(adapter?.request(login, { phone: '1', password: 'p' }).fields).toEqual({ mobile: '1', pwd: 'p' })
    expect(() => loadAdapter(join(ROOT_DIR, 'package.json'))).toThrow(/package\.json:2:/)
  })
})
