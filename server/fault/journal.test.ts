import { afterEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../test-support/test-app'
import { BODY_SHOW, Journal, redactBody, redactUrl, tokenKey } from './journal'

const open = (j: Journal, over: Partial<Parameters<Journal['open']>[0]> = {}) =>
  j.open({ at: 1_000, clock: 1_000, method: 'GET', url: '/api/x', scope: null, scopeKey: null, ...over })

describe('the journal ring', () => {
  it('keeps the newest entries only, oldest first in answers', () => {
    const j = new Journal(3)
    for (let i = 0; i < 5; i++) open(j, { url: `/api/n${i}` })
    expect(j.size).toBe(3)
    expect(j.query({}).map((e) => e.path)).toEqual(['/api/n2', '/api/n3', '/api/n4'])
    expect(j.query({}, 2).map((e) => e.seq)).toEqual([4, 5])
    expect(j.newestSeq).toBe(5)
  })

  it('filters by scope (value or token), path glob, method, time, unmatched, rule, code, sequence', () => {
    const j = new Journal(100)
    const token = 'f'.repeat(32)
    const a = open(j, { scope: 'a', scopeKey: 'a', url: '/api/api/getBalance?player_id=1', at: 10 })
    a.code = 1
    const t = open(j, {
      scope: tokenKey(token),
      scopeKey: tokenKey(token),
      method: 'POST',
      url: '/api/login',
      at: 20,
    })
    t.fault = { kind: 'rule', ruleId: 'r1', label: null, action: 'reset' }
    t.code = 401
    open(j, { url: '/api/users/info', at: 30 })
    expect(j.query({ scope: 'a' }).map((e) => e.seq)).toEqual([a.seq])
    expect(j.query({ scope: token }).map((e) => e.seq)).toEqual([t.seq])
    expect(j.query({ path: '/api/api/*' })).toHaveLength(1)
    expect(j.query({ method: 'post' })).toHaveLength(1)
    expect(j.query({ since: 15, until: 25 }).map((e) => e.seq)).toEqual([t.seq])
    expect(j.count({ unmatched: true })).toBe(2)
    expect(j.count({ unmatched: false })).toBe(1)
    expect(j.count({ rule: 'r1' })).toBe(1)
    expect(j.count({ code: 401 })).toBe(1)
    expect(j.count({ afterSeq: a.seq })).toBe(2)
    expect(JSON.stringify(j.query({}))).not.toContain(token)
    expect(JSON.stringify(j.query({}))).not.toContain('scopeKey')
  })

  it('forgets everything, or one scope', () => {
    const j = new Journal(10)
    open(j, { scope: 'a', scopeKey: 'a' })
    open(j, { scope: 'b', scopeKey: 'b' })
    j.clear('a')
    expect(j.query({}).map((e) => e.scope)).toEqual(['b'])
    open(j, { scope: 'a', scopeKey: 'a' })
    expect(j.count({ scope: 'a' })).toBe(1)
    j.clear()
    expect(j.size).toBe(0)
    expect(j.query({})).toEqual([])
  })

  it('redacts secrets in query strings', () => {
    expect(redactUrl('/api/x?token=abc&player_id=1&pay_password=123456')).toBe(
      '/api/x?token=%5Bredacted%5D&player_id=1&pay_password=%5Bredacted%5D',
    )
    expect(redactUrl('/api/x?player_id=1')).toBe('/api/x?player_id=1')
  })
})

describe('headers and bodies in the journal', () => {
  const json = { 'content-type': 'application/json' }
  const form = { 'content-type': 'application/x-www-form-urlencoded' }

  it('keeps them, redacted: token and admin token headers, passwords, payment passwords, tokens in answers', () => {
    const j = new Journal(10)
    const e = open(j, {
      method: 'POST',
      url: '/api/api2/withdraw?player_id=7',
      headers: {
        ...form,
        token: 'secret-token-1',
        'x-emu-admin-token': 'admin-secret',
        'x-client': 'ios 17',
      },
    })
    j.setRequestBody(e, Buffer.from('amount=20&pay_password=123456&address=TXyz'))
    j.setResponse(e, json, Buffer.from('{"code":1,"data":{"token":"tok-2","id":3}}'), 42)
    const [shown] = j.query({})
    expect(shown?.request).toMatchObject({
      query: { player_id: ['7'] },
      headers: { token: '[redacted]', 'x-emu-admin-token': '[redacted]', 'x-client': 'ios 17' },
      body: 'amount=20&pay_password=%5Bredacted%5D&address=TXyz',
      bodyBytes: 42,
    })
    expect(shown?.response?.body).toBe('{"code":1,"data":{"token":"[redacted]","id":3}}')
    const text = JSON.stringify(shown)
    for (const secret of ['secret-token-1', 'admin-secret', '123456', 'tok-2'])
      expect(text).not.toContain(secret)
  })

  it('redacts JSON, form and multipart bodies, and JSON cut short', () => {
    expect(
      redactBody(
        Buffer.from('{"phone":"138","password":"demo1234","a":[{"old_password":"x"}]}'),
        'application/json',
      ).text,
    ).toBe('{"phone":"138","password":"[redacted]","a":[{"old_password":"[redacted]"}]}')
    const multipart =
      '--b\r\nContent-Disposition: form-data; name="phone"\r\n\r\n138\r\n--b\r\nContent-Disposition: form-data; name="password"\r\n\r\ndemo1234\r\n--b--\r\n'
    const shown = redactBody(Buffer.from(multipart), 'multipart/form-data; boundary=b').text
    expect(shown).toContain('138')
    expect(shown).not.toContain('demo1234')
    expect(redactBody(Buffer.from('{"token":"abcdef","x":"'), 'application/json').text).not.toContain(
      'abcdef',
    )
  })

  it('bounds each body and the whole journal', () => {
    const j = new Journal(50, 64 * 1024)
    const big = Buffer.alloc(20_000, 'a')
    const first = open(j, { headers: json })
    j.setRequestBody(first, big)
    const [shown] = j.query({})
    expect(shown?.request?.body?.length).toBe(BODY_SHOW + 1)
    expect(shown?.request).toMatchObject({ truncated: true, bodyBytes: 20_000 })
    for (let i = 0; i < 10; i++) {
      const e = open(j, { headers: json })
      e.outcome = 'answered'
      j.setRequestBody(e, big)
    }
    expect(j.detailSize).toBeLessThanOrEqual(64 * 1024)
    const entries = j.query({})
    expect(entries).toHaveLength(11)
    // The oldest lost their details, the newest kept them.
    expect(entries[1]?.request).toBeNull()
    expect(entries.at(-1)?.request?.bodyBytes).toBe(20_000)
  })

  it('at its budget, drops the oldest details first round the ring, and keeps those of a request in flight', () => {
    // Room for the details of four entries (headers and a 1,000-byte body each); the ring goes round
    // three times.
    const j = new Journal(8, 4 * 2_048)
    const body = Buffer.alloc(1_000, 'a')
    const answered = () => {
      const e = open(j, { headers: json })
      j.setRequestBody(e, body)
      e.outcome = 'answered'
      return e
    }
    const hung = open(j, { headers: json })
    j.setRequestBody(hung, body)
    for (let i = 0; i < 5; i++) answered()
    const withDetails = () => j.query({}).map((e) => e.request !== null)
    expect(j.detailSize).toBeLessThanOrEqual(4 * 2_048)
    // Oldest first: the request in flight, then the oldest answered ones lost nothing but theirs.
    expect(withDetails()).toEqual([true, false, false, true, true, true])
    hung.outcome = 'answered'
    for (let i = 0; i < 2; i++) answered()
    expect(withDetails()).toEqual([false, false, false, false, true, true, true, true])
    for (let round = 0; round < 16; round++) {
      answered()
      expect(j.detailSize).toBeLessThanOrEqual(4 * 2_048)
      expect(withDetails()).toEqual([false, false, false, false, true, true, true, true])
    }
  })

  it("reads an answer's envelope code when asked, even after the answer was dropped to stay in budget", () => {
    const j = new Journal(50, 8 * 1024)
    const answered = (text: string) => {
      const e = open(j, { headers: json })
      e.outcome = 'answered'
      j.setResponse(e, { 'content-type': 'application/json' }, text, Buffer.byteLength(text), true)
      return e
    }
    const first = answered('{"code":10001,"msg":"登录已失效!","data":null}')
    expect(first.unreadCode).not.toBeNull()
    for (let i = 0; i < 10; i++) answered(`{"code":1,"msg":"成功","data":"${'x'.repeat(1_000)}"}`)
    const [oldest] = j.query({ afterSeq: first.seq - 1 })
    // The details went to keep the budget; the code did not.
    expect(oldest?.response).toBeNull()
    expect(oldest?.code).toBe(10001)
    expect(j.count({ code: 10001 })).toBe(1)
    expect(j.count({ code: 1 })).toBe(10)
    // Text is kept as sent, counted in bytes, and not shown as cut short.
    expect(j.query({}).at(-1)?.response).toMatchObject({ bodyBytes: 1_035, truncated: false })
  })

  it('filters by query parameter, header and body field: equal, regex, present, absent', () => {
    const j = new Journal(10)
    const a = open(j, {
      method: 'POST',
      url: '/api/w?player_id=7',
      headers: { ...json, 'x-client': 'ios 17' },
    })
    j.setRequestBody(a, Buffer.from('{"amount":"500","to":{"chain":"TRC20"},"pay_password":"1"}'))
    const b = open(j, { method: 'POST', url: '/api/w?player_id=8', headers: form })
    j.setRequestBody(b, Buffer.from('amount=20'))
    const seqs = (f: Parameters<Journal['query']>[0]) => j.query(f).map((e) => e.seq)
    expect(seqs({ query: 'player_id=7' })).toEqual([a.seq])
    expect(seqs({ query: ['player_id~=^[78]$'] })).toEqual([a.seq, b.seq])
    expect(seqs({ header: 'X-Client~=^ios' })).toEqual([a.seq])
    expect(seqs({ body: 'amount=500' })).toEqual([a.seq])
    expect(seqs({ body: { amount: 20 } })).toEqual([b.seq])
    expect(seqs({ body: 'to.chain=TRC20' })).toEqual([a.seq])
    expect(seqs({ body: 'pay_password' })).toEqual([a.seq])
    // A secret is stored redacted: it matches as present, never by its value.
    expect(seqs({ body: 'pay_password=1' })).toEqual([])
    expect(seqs({ body: '!pay_password' })).toEqual([b.seq])
  })
})

describe('the journal under load', () => {
  let t: TestApp | undefined
  afterEach(async () => {
    await t?.close()
  })

  it('stays bounded at its size through twenty times as many requests', async () => {
    t = await createTestApp({ EMU_JOURNAL_SIZE: '500', GAME_CHAIN_LENGTH: '5000' })
    const { app } = t
    // Answered by the fault layer itself, the cheapest path that still writes a full entry.
    await app.inject({
      method: 'POST',
      url: '/__emu/faults',
      payload: { scope: 'load', action: { type: 'envelope', code: 7 } },
    })
    const total = 10_000
    const batch = 100
    for (let sent = 0; sent < total; sent += batch) {
      const calls: Promise<unknown>[] = []
      for (let i = 0; i < batch; i++) {
        calls.push(
          app.inject({
            method: 'GET',
            url: `/api/none?i=${sent + i}&password=x`,
            headers: { 'x-emu-scope': 'load' },
          }),
        )
      }
      await Promise.all(calls)
    }
    const journal = app.faults.journal
    if (!journal) throw new Error('journal is off')
    expect(journal.size).toBe(500)
    expect(journal.newestSeq).toBeGreaterThanOrEqual(total)
    const page = (await app.inject({ url: '/__emu/requests?limit=5000&scope=load' })).json()
    expect(page.data.entries).toHaveLength(500)
    expect(page.data.entries.at(-1).url).toBe(`/api/none?i=${total - 1}&password=%5Bredacted%5D`)
    expect(
      page.data.entries.every((e: { code: number; status: number }) => e.code === 7 && e.status === 200),
    ).toBe(true)
  }, 180_000)
})
