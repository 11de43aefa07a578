import { request as httpRequest } from 'node:http'
import { CODE } from '@shared/envelope'
import { MSG } from '@shared/messages'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { EmuClient } from '../../scripts/emu/emu-client'
import { API_HEADERS } from '../plugins/security'
import { handTimers, promptTimers } from '../test-support/action-timers'
import { rawExchange } from '../test-support/raw-socket'
import { REAL_TIMERS } from './fault-actions'
import { type LiveServer, liveLogin, startLive } from './live-servers'

/** What a raw HTTP call ended with: an answer with its bytes, or a socket error. */
type Outcome =
  | { kind: 'response'; status: number; headers: Record<string, unknown>; body: string; complete: boolean }
  | { kind: 'error'; code: string | undefined; message: string }

/**
 * One request on its own connection (no pooling), reporting exactly what the socket did. No
 * time-out of its own: a call the test means to give up on is ended with `signal`.
 */
function rawCall(
  base: string,
  path: string,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = httpRequest(`${base}${path}`, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      const finish = (complete: boolean) =>
        resolve({
          kind: 'response',
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          complete,
        })
      res.on('end', () => finish(res.complete))
      res.on('error', () => finish(false))
      res.on('aborted', () => finish(false))
    })
    signal?.addEventListener('abort', () =>
      req.destroy(Object.assign(new Error('given up'), { code: 'GIVEN_UP' })),
    )
    req.on('error', (err: NodeJS.ErrnoException) =>
      resolve({ kind: 'error', code: err.code, message: err.message }),
    )
    req.end()
  })
}

for (const mode of ['emulator', 'proxy'] as const) {
  describe(`fault actions, ${mode} mode`, () => {
    let live: LiveServer
    let emu: EmuClient
    let token: string
    let balancePath: string

    beforeAll(async () => {
      live = await startLive(mode)
      emu = new EmuClient({ url: live.url, adminToken: live.adminHeaders['x-emu-admin-token'] })
      const login = await liveLogin(live.url)
      token = login.token
      balancePath = `/api/api/getBalance?player_id=${login.playerId}`
    }, 120_000)
    afterAll(async () => {
      await live.close()
    }, 120_000)
    beforeEach(async () => {
      await emu.clearFaults({ all: true })
    })
    afterEach(() => {
      live.app.faults.actions.timers = REAL_TIMERS
    })

    const balance = (extra: Record<string, string> = {}) =>
      rawCall(live.url, balancePath, { token, ...extra })

    it('passes calls through untouched when no rule matches', async () => {
      const out = await balance()
      expect(out).toMatchObject({ kind: 'response', status: 200, complete: true })
      if (out.kind === 'response')
        expect(JSON.parse(out.body)).toMatchObject({ code: 1, data: { balance: '1000.00' } })
    })

    it('envelope: HTTP 200 with the body code and message', async () => {
      await emu.fault('/api/api/getBalance', { type: 'envelope', code: 10001, msg: MSG.sessionExpired })
      const out = await balance()
      expect(out.kind === 'response' && out.status).toBe(200)
      if (out.kind === 'response') {
        expect(JSON.parse(out.body)).toEqual({ code: 10001, msg: MSG.sessionExpired, data: null })
      }
      await emu.clearFaults({ all: true })
      await emu.fault('/api/**', { type: 'envelope', code: 401, message: 'unauthorised' })
      const second = await balance()
      if (second.kind !== 'response') throw new Error(second.message)
      expect(JSON.parse(second.body)).toEqual({ code: 401, message: 'unauthorised', data: null })
    })

    it('status: an HTTP status with a JSON or text body and extra headers', async () => {
      await emu.fault('/api/api/getBalance', {
        type: 'status',
        status: 503,
        body: 'down for maintenance',
        headers: { 'retry-after': '7' },
      })
      const out = await balance()
      expect(out).toMatchObject({ kind: 'response', status: 503, body: 'down for maintenance' })
      if (out.kind === 'response') expect(out.headers['retry-after']).toBe('7')
      await emu.clearFaults({ all: true })
      await emu.fault('/api/api/getBalance', { type: 'status', status: 401 })
      const json = await balance()
      if (json.kind !== 'response') throw new Error(json.message)
      expect(json.status).toBe(401)
      expect(JSON.parse(json.body)).toMatchObject({ code: 401 })
      // Without a body, a Chinese envelope the app can show, never the HTTP reason phrase.
      await emu.clearFaults({ all: true })
      await emu.fault('/api/api/getBalance', { type: 'status', status: 500 })
      const plain = await balance()
      if (plain.kind !== 'response') throw new Error(plain.message)
      expect(plain.status).toBe(500)
      expect(JSON.parse(plain.body)).toEqual({ code: 500, msg: '服务器繁忙，请稍后再试', data: null })
      expect(plain.body).not.toContain('Internal Server Error')
    })

    it('delay: the delayed call answers after an undelayed one started later, and in full', async () => {
      const { timers, asked } = handTimers()
      live.app.faults.actions.timers = timers
      await emu.fault('/api/api/getBalance', { type: 'delay', ms: 400 }, { times: 1 })
      const order: string[] = []
      const slow = balance().then((o) => {
        order.push('slow')
        return o
      })
      // The layer holds the first call for 400 ms: the second starts once it is held.
      const held = await asked()
      expect(held.ms).toBe(400)
      // The rule is spent the moment the first call matched, so this one is not delayed.
      const fast = await balance()
      order.push('fast')
      expect(order).toEqual(['fast'])
      held.fire()
      const slowOut = await slow
      expect(order).toEqual(['fast', 'slow'])
      expect(fast).toMatchObject({ kind: 'response', status: 200 })
      expect(slowOut).toMatchObject({ kind: 'response', status: 200, complete: true })
    })

    it('delay: a range waits a time drawn from it, and nothing is answered before then', async () => {
      const { timers, asked } = handTimers()
      live.app.faults.actions.timers = timers
      await emu.fault('/api/api/getBalance', { type: 'delay', minMs: 1500, maxMs: 2000 })
      let answered = false
      const call = balance().then((o) => {
        answered = true
        return o
      })
      const held = await asked()
      expect(held.ms).toBeGreaterThanOrEqual(1500)
      expect(held.ms).toBeLessThanOrEqual(2000)
      // Another call goes there and back while this one is held, and it still has no answer.
      const second = balance()
      const next = await asked()
      next.fire()
      expect(await second).toMatchObject({ kind: 'response', status: 200 })
      expect(answered).toBe(false)
      held.fire()
      expect(await call).toMatchObject({ kind: 'response', status: 200, complete: true })
    })

    it('hang: no answer ever comes; the journal says so', async () => {
      const rule = await emu.fault('/api/api/getBalance', { type: 'hang' }, { times: 1 })
      const fired = new Promise<void>((resolve) => {
        const off = live.app.faults.onFiring((r) => {
          if (r.id !== rule.id) return
          off()
          resolve()
        })
      })
      const giveUp = new AbortController()
      const hung = rawCall(live.url, balancePath, { token }, giveUp.signal)
      await fired
      // A later call is answered while the hung one still waits; then the client gives up.
      expect(await balance()).toMatchObject({ kind: 'response', status: 200 })
      giveUp.abort()
      expect(await hung).toMatchObject({ kind: 'error', code: 'GIVEN_UP' })
      const entries = (await emu.requests({ rule: rule.id })).entries
      expect(entries.map((e) => e.outcome)).toEqual(['hang'])
    })

    it('reset: a real TCP reset', async () => {
      await emu.fault('/api/api/getBalance', { type: 'reset' })
      const out = await balance()
      expect(out).toMatchObject({ kind: 'error', code: 'ECONNRESET' })
      if (out.kind === 'error') expect(out.message).not.toMatch(/hang up/)
    })

    it('empty: the connection closes with no response', async () => {
      await emu.fault('/api/api/getBalance', { type: 'empty' })
      const out = await balance()
      expect(out).toMatchObject({ kind: 'error', message: 'socket hang up' })
    })

    it('malformed: HTTP 200 whose JSON body does not parse', async () => {
      await emu.fault('/api/api/getBalance', { type: 'malformed' })
      const res = await fetch(`${live.url}${balancePath}`, { headers: { token } })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toContain('application/json')
      await expect(res.json()).rejects.toThrow()
    })

    it('truncate: the real answer announced in full, cut off halfway', async () => {
      await emu.fault('/api/api/getBalance', { type: 'truncate' })
      const out = await balance()
      if (out.kind !== 'response') throw new Error(`expected headers first, got ${out.message}`)
      expect(out.status).toBe(200)
      expect(out.complete).toBe(false)
      const announced = Number(out.headers['content-length'])
      expect(announced).toBeGreaterThan(0)
      expect(Buffer.byteLength(out.body)).toBe(Math.floor(announced / 2))
      expect('{"code":1,"msg":"成功","data":{"balance":"1000.00"').toContain(out.body.slice(0, 10))
    })

    it('fail twice, then succeed: a retrying client gets through on the third try', async () => {
      const rule = await emu.fault('/api/api/getBalance', { type: 'reset' }, { times: 2 })
      const attempts: string[] = []
      let result: Outcome | undefined
      for (let i = 0; i < 5; i++) {
        const out = await balance()
        attempts.push(out.kind === 'response' ? String(out.status) : (out.code ?? 'error'))
        if (out.kind === 'response') {
          result = out
          break
        }
      }
      expect(attempts).toEqual(['ECONNRESET', 'ECONNRESET', '200'])
      expect(result && result.kind === 'response' && JSON.parse(result.body).code).toBe(1)
      expect(await emu.getFault(rule.id)).toMatchObject({ fired: 2, matched: 3, spent: true })
    })

    it('session expire: the next call with the token gets 10001, and every later one', async () => {
      const own = await liveLogin(live.url)
      const path = `/api/api/getBalance?player_id=${own.playerId}`
      await emu.expireSession(own.token)
      for (let i = 0; i < 2; i++) {
        const out = await rawCall(live.url, path, { token: own.token })
        if (out.kind !== 'response') throw new Error(out.message)
        expect(out.status).toBe(200)
        expect(JSON.parse(out.body)).toEqual({
          code: CODE.sessionExpired,
          msg: MSG.sessionExpired,
          data: null,
        })
      }
      // Other sessions are untouched.
      expect(await balance()).toMatchObject({ kind: 'response', status: 200 })
    })

    it('session revoke: the next call with the token gets HTTP 401', async () => {
      const own = await liveLogin(live.url)
      await emu.revokeSession(own.token)
      const out = await rawCall(live.url, `/api/api/getBalance?player_id=${own.playerId}`, {
        token: own.token,
      })
      if (out.kind !== 'response') throw new Error(out.message)
      expect(out.status).toBe(401)
      expect(JSON.parse(out.body)).toMatchObject({ code: 401, msg: MSG.sessionExpired })
    })

    it('session lifetime in requests: N more calls, then 10001', async () => {
      const own = await liveLogin(live.url)
      const path = `/api/api/getBalance?player_id=${own.playerId}`
      await emu.sessionLifetime(own.token, { requests: 2 })
      const codes: number[] = []
      for (let i = 0; i < 4; i++) {
        const out = await rawCall(live.url, path, { token: own.token })
        if (out.kind !== 'response') throw new Error(out.message)
        codes.push(JSON.parse(out.body).code)
      }
      expect(codes).toEqual([1, 1, 10001, 10001])
    })

    it('session lifetime in ms follows the clock of the scope', async () => {
      const own = await liveLogin(live.url)
      const path = `/api/api/getBalance?player_id=${own.playerId}`
      const scoped = emu.withScope(own.token)
      await scoped.sessionLifetime(own.token, { ms: 60_000 })
      const code = async () => {
        const out = await rawCall(live.url, path, { token: own.token })
        if (out.kind !== 'response') throw new Error(out.message)
        return JSON.parse(out.body).code as number
      }
      expect(await code()).toBe(1)
      await scoped.advanceClock(60_000)
      expect(await code()).toBe(10001)
      // The world clock did not move.
      expect((await emu.clock()).mode).toBe('real')
      await scoped.reset()
    })

    it('any session: the next call that carries a token is expired, whichever token', async () => {
      const own = await liveLogin(live.url)
      const path = `/api/api/getBalance?player_id=${own.playerId}`
      await emu.expireSession('any')
      const first = await rawCall(live.url, path, { token: own.token })
      const again = await rawCall(live.url, path, { token: own.token })
      for (const out of [first, again]) {
        if (out.kind !== 'response') throw new Error(out.message)
        expect(JSON.parse(out.body).code).toBe(10001)
      }
      expect(await balance()).toMatchObject({ kind: 'response', status: 200 })
    })

    it('network shapes: bandwidth and slicer send the whole answer in pieces, slow close holds its end', async () => {
      const { timers, asked } = promptTimers()
      live.app.faults.actions.timers = timers
      const pieces = () =>
        new Promise<{ body: string; headers: Record<string, unknown> }>((resolve, reject) => {
          const req = httpRequest(
            `${live.url}${balancePath}`,
            { headers: { token }, agent: false },
            (res) => {
              let body = ''
              res.setEncoding('utf8')
              res.on('data', (c: string) => {
                body += c
              })
              res.on('end', () => resolve({ body, headers: res.headers }))
              res.on('error', reject)
            },
          )
          req.on('error', reject)
          req.end()
        })
      await emu.fault('/api/api/getBalance', { type: 'slicer', chunkBytes: 16, delayMs: 5 }, { times: 1 })
      const sliced = await pieces()
      expect(JSON.parse(sliced.body)).toMatchObject({ code: 1, data: { balance: '1000.00' } })
      expect(Number(sliced.headers['content-length'])).toBe(Buffer.byteLength(sliced.body))
      // 16-byte slices, a gap of 5 ms before each after the first, and no hold at the end. (The
      // timers run at once, so the client may read several slices in one chunk.)
      const slices = Math.ceil(Buffer.byteLength(sliced.body) / 16)
      expect(slices).toBeGreaterThan(3)
      expect(asked.splice(0)).toEqual([...Array(slices - 1).fill(5), 0])
      await emu.fault('/api/api/getBalance', { type: 'bandwidth', bytesPerSecond: 400 }, { times: 1 })
      const slow = await pieces()
      expect(JSON.parse(slow.body)).toMatchObject({ code: 1 })
      // 400 B/s in tenths of a second: 40 bytes every 100 ms.
      const tenths = Math.ceil(Buffer.byteLength(slow.body) / 40)
      expect(tenths).toBeGreaterThan(1)
      expect(asked.splice(0)).toEqual([...Array(tenths - 1).fill(100), 0])
      await emu.fault('/api/api/getBalance', { type: 'slowClose', ms: 50 }, { times: 1 })
      const closing = await pieces()
      expect(closing.headers['content-length']).toBeUndefined()
      expect(JSON.parse(closing.body)).toMatchObject({ code: 1 })
      expect(asked.splice(0)).toEqual([50])
      await emu.fault('/api/api/getBalance', { type: 'latency', ms: 20, jitterMs: 10 }, { times: 1 })
      expect(await balance()).toMatchObject({ kind: 'response', status: 200, complete: true })
      const [latency = -1, ...more] = asked.splice(0)
      expect(more).toEqual([])
      expect(latency).toBeGreaterThanOrEqual(10)
      expect(latency).toBeLessThanOrEqual(30)
      const journal = await emu.requests({ path: '/api/api/getBalance', limit: 4 })
      expect(journal.entries.map((e) => [e.fault?.action, e.outcome, e.code])).toEqual([
        ['slicer', 'answered', 1],
        ['bandwidth', 'answered', 1],
        ['slowClose', 'answered', 1],
        ['latency', 'answered', 1],
      ])
    })

    it('timeout closes without an answer; a reset after the head leaves the client a broken answer', async () => {
      const { timers, asked } = handTimers()
      live.app.faults.actions.timers = timers
      await emu.fault('/api/api/getBalance', { type: 'timeout', ms: 30 }, { times: 1 })
      const call = balance()
      const held = await asked()
      expect(held.ms).toBe(30)
      held.fire()
      const closed = await call
      expect(closed).toMatchObject({ kind: 'error' })
      await emu.fault('/api/api/getBalance', { type: 'reset', after: 'head' }, { times: 1 })
      const broken = await balance()
      // Bytes of an answer came first: the client saw a status line, then lost the connection.
      if (broken.kind === 'response') expect(broken).toMatchObject({ status: 200, complete: false })
      else expect(broken.code).toMatch(/ECONNRESET|HPE_|ERR_/)
      const outcomes = (await emu.requests({ path: '/api/api/getBalance', limit: 2 })).entries.map(
        (e) => e.outcome,
      )
      expect(outcomes).toEqual(['timeout', 'reset'])
    })

    it('a reset after the head sends the head every /api answer has, so a browser does not keep it in its cache', async () => {
      await emu.fault('/api/api/getBalance', { type: 'reset', after: 'head' }, { times: 1 })
      const { host } = new URL(live.url)
      const { text, end } = await rawExchange(
        live.url,
        `GET ${balancePath} HTTP/1.1\r\nhost: ${host}\r\ntoken: ${token}\r\n\r\n`,
      )
      expect(end).toBe('ECONNRESET')
      const [head = '', body] = text.split('\r\n\r\n')
      const lines = head.toLowerCase().split('\r\n')
      expect(lines[0]).toBe('http/1.1 200 ok')
      for (const [name, value] of Object.entries(API_HEADERS))
        expect(lines).toContain(`${name}: ${value}`.toLowerCase())
      expect(lines).toContain('content-type: application/json; charset=utf-8')
      const length = Number(lines.find((l) => l.startsWith('content-length: '))?.slice(16))
      expect(body?.length).toBeLessThan(length)
    })

    it('matches on query, headers and body fields; the body still reaches the emulator whole', async () => {
      const post = (path: string, body: BodyInit, headers: Record<string, string> = {}) =>
        fetch(`${live.url}${path}`, { method: 'POST', headers: { token, ...headers }, body }).then(
          async (r) => ((await r.json()) as { code: number; msg?: string }).code,
        )
      await emu.addFault({
        match: {
          method: 'POST',
          path: '/api/users/change-password',
          body: { new_password: { matches: '^boom' } },
        },
        action: { type: 'envelope', code: 777 },
      })
      await emu.addFault({
        match: {
          path: '/api/api/getBalance',
          query: { player_id: { present: true } },
          headers: { 'x-client': 'ios' },
        },
        action: { type: 'envelope', code: 778 },
      })
      const form = (pw: string) => new URLSearchParams({ old_password: 'wrong-password', new_password: pw })
      // Form body: the rule fires on a match...
      expect(await post('/api/users/change-password', form('boom999'))).toBe(777)
      // ...and a call it does not match is answered by the emulator, which read the body whole
      // (a wrong old password, not a missing field).
      expect(await post('/api/users/change-password', form('fine999'))).not.toBe(777)
      const multipart = new FormData()
      multipart.set('old_password', 'wrong-password')
      multipart.set('new_password', 'boom123')
      expect(await post('/api/users/change-password', multipart)).toBe(777)
      expect(
        await post(
          '/api/users/change-password',
          JSON.stringify({ old_password: 'x', new_password: 'boom1' }),
          {
            'content-type': 'application/json',
          },
        ),
      ).toBe(777)
      const out = await balance({ 'x-client': 'ios' })
      expect(out.kind === 'response' && JSON.parse(out.body).code).toBe(778)
      const plain = await balance({ 'x-client': 'android' })
      expect(plain.kind === 'response' && JSON.parse(plain.body).code).toBe(1)
      // The guide's two body matchers on withdrawals: a call they do not fire on reaches the
      // emulator, which checks the session first (10001 without one) and then reads the body.
      await emu.addFault({
        match: {
          method: 'POST',
          path: '/api/api2/withdraw',
          body: { amount: { matches: '^([5-9]\\d\\d|\\d{4,})' } },
        },
        action: { type: 'envelope', code: 0, msg: '超出单笔限额' },
      })
      await emu.addFault({
        match: {
          method: 'POST',
          path: '/api/api2/withdraw',
          body: { pay_password: { present: true }, amount: '20' },
        },
        action: { type: 'envelope', code: 0, msg: '支付密码错误' },
      })
      const withdraw = async (amount: string, headers: Record<string, string>) => {
        const res = await fetch(`${live.url}/api/api2/withdraw`, {
          method: 'POST',
          headers,
          body: new URLSearchParams({ wallet_id: '999999', amount, pay_password: '123456' }),
        })
        return { status: res.status, body: (await res.json()) as { code: number; msg?: string } }
      }
      expect(await withdraw('600', { token })).toMatchObject({
        status: 200,
        body: { code: 0, msg: '超出单笔限额' },
      })
      expect(await withdraw('20', { token })).toMatchObject({
        status: 200,
        body: { code: 0, msg: '支付密码错误' },
      })
      const through = await withdraw('30', { token })
      expect(through.status).toBe(200)
      expect(through.body.msg).not.toMatch(/超出单笔限额|支付密码错误/)
      expect(through.body.code).not.toBe(1)
      expect(await withdraw('30', {})).toMatchObject({ status: 200, body: { code: CODE.sessionExpired } })
      expect(await withdraw('30', { token: 'not-a-session-token-000000' })).toMatchObject({
        status: 200,
        body: { code: CODE.sessionExpired },
      })
      // A path with a query string is refused, naming where the query goes.
      await expect(
        emu.fault('/api/api/getBalance?player_id=1', { type: 'envelope', code: 1 }),
      ).rejects.toThrow(/match\.query/)
    })

    it('journals each call: the rule, the envelope code, the outcome, no token', async () => {
      const rule = await emu.fault(
        '/api/api/getBalance',
        { type: 'envelope', code: 401 },
        { label: 'journal-test' },
      )
      const before = (await emu.requests({ limit: 1 })).lastSeq
      await balance()
      await emu.clearFaults({ all: true })
      await balance()
      const page = await emu.requests({ afterSeq: before, path: '/api/api/getBalance' })
      expect(page.entries.map((e) => [e.code, e.fault?.ruleId ?? null, e.outcome])).toEqual([
        [401, rule.id, 'answered'],
        [1, null, 'answered'],
      ])
      expect(page.entries[0]?.fault).toMatchObject({
        kind: 'rule',
        label: 'journal-test',
        action: 'envelope',
      })
      expect(JSON.stringify(page)).not.toContain(token)
      expect(await emu.countRequests({ afterSeq: before, unmatched: true, scope: token })).toBe(1)
    })
  })
}
