import { join } from 'node:path'
import { announcement, getBalance, login, userInfo } from '@shared/contract/account'
import { gameResults, placeBets } from '@shared/contract/games'
import { fundFlow, getDepositOrder, withdraw } from '@shared/contract/wallet'
import { describe, expect, it } from 'vitest'
import { ROOT_DIR } from '../paths'
import { fieldsOf } from './adapted-call'
import { AdapterError, loadAdapter } from './adapter'
import { checkAnswer } from './contract-monitor'

const MARKET = join(ROOT_DIR, 'fixtures/upstream/market-habits.adapter.yaml')

describe('an adapter file', () => {
  it('is refused at start-up naming the file, the line and the key', () => {
    const bad = [
      'envelope:',
      '  success: [200]',
      'endpoints:',
      '  getBalance:',
      '    answer:',
      '      types: { balance: euros }',
    ].join('\n')
    expect(() => loadAdapter('a.yaml', bad)).toThrow(AdapterError)
    expect(() => loadAdapter('a.yaml', bad)).toThrow(
      /^a\.yaml:6: endpoints\.getBalance\.answer\.types\.balance: /,
    )
    expect(() => loadAdapter('a.json', '{"endpoints": {"noSuchThing": {}}}')).toThrow(
      /^a\.json:1: endpoints\.noSuchThing: no such endpoint/,
    )
    expect(() => loadAdapter('a.json', '{"endpoints": {')).toThrow(/^a\.json:1: /)
    expect(() => loadAdapter('a.yaml', 'envelope:\n  sucess: [200]\n')).toThrow(
      /^a\.yaml:2: envelope: .*sucess/,
    )
  })

  it('the shipped example loads', () => {
    expect(loadAdapter(MARKET).file.envelope.success).toEqual([200])
  })
})

describe('translating', () => {
  const adapter = loadAdapter(MARKET)

  it('a call: path, encoding and field names as the upstream wants them', () => {
    expect(adapter.request(login, { phone: '13800138000', password: 'demo1234' })).toEqual({
      method: 'POST',
      path: '/api/user/login',
      encoding: 'json',
      fields: { mobile: '13800138000', pwd: 'demo1234' },
    })
    // No entry for an endpoint: sent as the contract says.
    expect(adapter.request(fundFlow, { page: '2', page_size: '10' })).toMatchObject({
      method: 'GET',
      path: '/api/wallet/flows',
      encoding: 'query',
      fields: { page: '2', pageSize: '10' },
    })
  })

  it('an answer: envelope codes, names, types, values and pages, into one the contract takes', () => {
    const balance = adapter.answer(getBalance, { code: 200, message: 'ok', data: { usdt: 65.85, trx: 0 } })
    expect(balance).toEqual({ code: 1, msg: 'ok', data: { balance: '65.85', trx_balance: '0.00' } })
    expect(checkAnswer(getBalance, JSON.stringify(balance))).toEqual([])

    const flows = adapter.answer(
      fundFlow,
      {
        code: 200,
        message: '成功',
        data: {
          total: 3,
          list: [
            {
              flowId: 7,
              type: 'chongzhi',
              currency: 'USDT',
              amount: 100,
              balanceAfter: 100,
              createdAt: 1_795_800_000,
              memo: '',
            },
          ],
        },
      },
      { page: '1', page_size: '1' },
    )
    expect(flows.data).toMatchObject({
      page: 1,
      page_size: 1,
      total: 3,
      has_more: true,
      list: [
        { id: 7, type: 'topup', amount: '100.00', balance_after: '100.00', created_at: 1_795_800_000_000 },
      ],
    })

    // A short page with more rows by the total: has_more as the emulator's pages say it
    // (server/http/paged.ts), rows after the last one on this page.
    const short = adapter.answer(
      fundFlow,
      {
        code: 200,
        message: '成功',
        data: {
          total: 4,
          list: [
            {
              flowId: 8,
              type: 'chongzhi',
              currency: 'USDT',
              amount: 1,
              balanceAfter: 1,
              createdAt: 1_795_800_000,
              memo: '',
            },
          ],
        },
      },
      { page: '2', page_size: '2' },
    )
    expect(short.data).toMatchObject({ page: 2, page_size: 2, total: 4, has_more: true })

    const lost = adapter.answer(getBalance, { code: 401, message: '请重新登录', data: null })
    expect(lost).toEqual({ code: 10001, msg: '请重新登录', data: null })
    const refused = adapter.answer(getBalance, { code: 5003, message: '余额不足', data: null })
    expect(refused.code).toBe(5003)
  })
})

describe('a call with a JSON body and a path parameter', () => {
  const adapter = loadAdapter(MARKET)

  it('renames and retypes fields inside lists, in the order written, and keeps lists as lists', () => {
    expect(
      adapter.request(placeBets, {
        game: 'kuaisan',
        round_id: '202611270601',
        bets: [
          { bet_type: 'big', amount: '3.25' },
          { bet_type: 'odd', amount: '1' },
        ],
      }),
    ).toEqual({
      method: 'POST',
      path: '/api/game/bet',
      encoding: 'json',
      fields: {
        gameCode: 'kuaisan',
        issue: '202611270601',
        items: [
          { playCode: 'big', amount: 3.25 },
          { playCode: 'odd', amount: 1 },
        ],
      },
    })
  })

  it('fills `{name}` in the path from the field of that name, which leaves the query', () => {
    expect(adapter.request(getDepositOrder, { id: '17' })).toEqual({
      method: 'GET',
      path: '/api/recharge/order/17',
      encoding: 'query',
      fields: {},
    })
  })

  it('reads a JSON body’s lists and objects as they are', async () => {
    const body = Buffer.from(JSON.stringify({ game: 'qukuai', bets: [{ bet_type: 'big', amount: '1' }] }))
    expect(await fieldsOf('application/json', body, '/api/games/bet')).toEqual({
      game: 'qukuai',
      bets: [{ bet_type: 'big', amount: '1' }],
    })
  })
})

describe('other habits, each both ways', () => {
  const file = [
    'envelope: { ok: success, code: errCode, message: errMsg, data: result, sessionLost: [TOKEN_EXPIRED] }',
    'headers:',
    '  rename:',
    '    token: { name: Authorization, value: "Bearer {value}" }',
    '    Idempotency-Key: X-Request-Id',
    '  set: { X-App-Version: 2 }',
    'request:',
    '  set: { appId: h5 }',
    'endpoints:',
    '  announcement:',
    '    answer:',
    '      wrap: list',
    '      rename: { "list[].top": "list[].pinned", "list[].publishTime": "list[].published_at" }',
    '      types: { "list[].pinned": yn, "list[].published_at": datetime }',
    '  userInfo:',
    '    envelope: { data: result.user }',
    '    answer:',
    '      defaults: { vip_level: 0 }',
    '  fundFlow:',
    '    request:',
    '      defaults: { page_size: "20" }',
    '      values: { type: { topup: RECHARGE, bet: BET } }',
    '      rename: { page: pageNum, page_size: pageSize }',
    '      set: { sort: desc }',
    '    answer:',
    '      page: true',
    '      rename: { records: list, totalCount: total, pageNum: page, pageSize: page_size }',
    '      values: { "list[].type": { RECHARGE: topup, BET: bet } }',
    '      types: { "list[].amount": cents, "list[].balance_after": money }',
    '  gameResults:',
    '    answer:',
    '      types: { "list[].numbers": csv-int }',
    '  placeBets:',
    '    encoding: json',
    '    request:',
    '      types: { "bets[].amount": cents }',
    '  withdraw:',
    '    request:',
    '      types: { amount: cents }',
  ].join('\n')
  const adapter = loadAdapter('other.yaml', file)

  it('an envelope with a success flag, other names, and string codes', () => {
    const ok = adapter.answer(getBalance, {
      success: true,
      errCode: '0',
      errMsg: '',
      result: { balance: '1.00' },
    })
    expect(ok).toEqual({ code: 1, msg: '', data: { balance: '1.00' } })
    const lost = adapter.answer(getBalance, {
      success: false,
      errCode: 'TOKEN_EXPIRED',
      errMsg: '请重新登录',
    })
    expect(lost).toEqual({ code: 10001, msg: '请重新登录', data: null })
    expect(adapter.answer(getBalance, { success: false, errCode: '5003', errMsg: '余额不足' }).code).toBe(
      5003,
    )
    expect(adapter.answer(getBalance, { success: false, errCode: 'E_LIMIT', errMsg: '超限' })).toEqual({
      code: 0,
      msg: '超限',
      data: null,
    })
    // A refusal whose own code the app would read as success or a logout: a plain refusal.
    for (const theirs of ['1', 200, 401, '10001']) {
      expect(adapter.answer(getBalance, { success: false, errCode: theirs, errMsg: '失败' }).code).toBe(0)
    }
    // Without `ok`, a boolean in the success list is matched too.
    const flagged = loadAdapter('f.yaml', 'envelope: { code: success, success: [true] }')
    expect(flagged.answer(getBalance, { success: true, msg: 'ok', data: {} }).code).toBe(1)
    expect(flagged.answer(getBalance, { success: false, msg: 'no', data: null }).code).toBe(0)
  })

  it('a bare list as data, wrapped where the contract wants it, Y/N and datetime text read', () => {
    const answer = adapter.answer(announcement, {
      success: true,
      errCode: '0',
      errMsg: 'ok',
      result: [{ id: 1, title: 't', content: 'c', top: 'Y', publishTime: '2026-11-28 10:30:00' }],
    })
    expect(answer.data).toEqual({
      list: [{ id: 1, title: 't', content: 'c', pinned: true, published_at: Date.UTC(2026, 10, 28, 2, 30) }],
    })
    expect(checkAnswer(announcement, JSON.stringify(answer))).toEqual([])
  })

  it('a count beside a bare list, in the envelope, taken into the page', () => {
    const layui = loadAdapter(
      'l.yaml',
      'envelope: { success: [0] }\nendpoints:\n  fundFlow:\n    answer: { wrap: list, fromEnvelope: { count: total }, page: true }\n',
    )
    const answer = layui.answer(
      fundFlow,
      { code: 0, msg: '', count: 45, data: [{ id: 1 }] },
      { page: '3', page_size: '20' },
    )
    expect(answer.data).toEqual({ list: [{ id: 1 }], total: 45, page: 3, page_size: 20, has_more: true })
    // Nothing there: nothing taken, and the page counts its rows.
    expect(layui.answer(fundFlow, { code: 0, msg: '', data: [] }).data).toMatchObject({
      total: 0,
      has_more: false,
    })
  })

  it('data one level deeper for one endpoint, and a missing field defaulted', () => {
    const user = {
      player_id: 3,
      nickname: 'n',
      phone: '138***0000',
      invite_code: 'AB12CD',
      has_pay_password: false,
      created_at: 1,
    }
    const answer = adapter.answer(userInfo, { success: true, errMsg: '', result: { user } })
    expect(answer.data).toEqual({ ...user, vip_level: 0 })
    expect(
      adapter.answer(userInfo, { success: true, errMsg: '', result: { user: { ...user, vip_level: 4 } } })
        .data,
    ).toMatchObject({ vip_level: 4 })
  })

  it('pages as records/totalCount/pageNum: the call’s page fields renamed, defaulted and set; the answer’s read back', () => {
    expect(adapter.request(fundFlow, { page: '2', type: 'topup' }).fields).toEqual({
      pageNum: '2',
      pageSize: '20',
      type: 'RECHARGE',
      appId: 'h5',
      sort: 'desc',
    })
    expect(adapter.request(fundFlow, { page: '1', page_size: '5' }).fields).toMatchObject({ pageSize: '5' })
    const answer = adapter.answer(
      fundFlow,
      {
        success: true,
        errMsg: '',
        result: {
          records: [{ id: 1, type: 'RECHARGE', amount: 10050, balance_after: '1,100.5' }],
          totalCount: '7',
          pageNum: '2',
          pageSize: '5',
        },
      },
      { page: '2' },
    )
    expect(answer.data).toEqual({
      list: [{ id: 1, type: 'topup', amount: '100.50', balance_after: '1100.50' }],
      total: 7,
      page: 2,
      page_size: 5,
      has_more: true,
    })
  })

  it('comma-separated numbers read as a list; amounts sent in cents, inside a JSON body’s list too', () => {
    const answer = adapter.answer(gameResults, {
      success: true,
      errMsg: '',
      result: { list: [{ numbers: '3,5,6' }] },
    })
    expect(answer.data).toEqual({ list: [{ numbers: [3, 5, 6] }] })
    expect(adapter.request(placeBets, { bets: [{ bet_type: 'big', amount: '3.25' }] }).fields).toEqual({
      bets: [{ bet_type: 'big', amount: 325 }],
      appId: 'h5',
    })
    expect(adapter.request(withdraw, { amount: '20', wallet_id: '1' }).fields).toMatchObject({ amount: 2000 })
  })

  it('headers: the session token as a bearer, the idempotency key under the upstream’s name, constants set', () => {
    const headers = { token: 'abc', 'idempotency-key': 'k1', accept: 'application/json' }
    expect(adapter.headers(headers)).toEqual({})
    expect(headers).toEqual({
      authorization: 'Bearer abc',
      'x-request-id': 'k1',
      accept: 'application/json',
      'x-app-version': '2',
    })
    // Nothing to rename when the call has no session.
    const anonymous = { accept: '*/*' }
    adapter.headers(anonymous)
    expect(anonymous).toEqual({ accept: '*/*', 'x-app-version': '2' })
    // Without a `headers` key nothing changes.
    const plain = { token: 't' }
    loadAdapter('n.yaml', '{}').headers(plain)
    expect(plain).toEqual({ token: 't' })
  })

  it('the session token moved out of the headers into the call’s fields (`?token=`), templated or not', () => {
    const inQuery = loadAdapter(
      'q.yaml',
      'headers:\n  rename:\n    token: { field: token }\n    Idempotency-Key: { field: nonce, value: "k-{value}" }\n',
    )
    const headers = { token: 'abc', 'idempotency-key': '7', accept: '*/*' }
    const fromHeaders = inQuery.headers(headers)
    expect(headers).toEqual({ accept: '*/*' })
    expect(fromHeaders).toEqual({ token: 'abc', nonce: 'k-7' })
    expect(inQuery.request(getBalance, { player_id: '9' }, fromHeaders)).toEqual({
      method: 'GET',
      path: '/api/api/getBalance',
      encoding: 'query',
      fields: { player_id: '9', token: 'abc', nonce: 'k-7' },
    })
  })

  it('takes names with hyphens in paths', () => {
    const hyphens = loadAdapter(
      'h.yaml',
      'endpoints:\n  getBalance:\n    answer:\n      rename: { usdt-balance: balance }\n',
    )
    expect(hyphens.answer(getBalance, { code: 1, msg: '', data: { 'usdt-balance': '1.00' } }).data).toEqual({
      balance: '1.00',
    })
    expect(() =>
      loadAdapter('h.yaml', 'endpoints:\n  getBalance:\n    answer:\n      rename: { "a..b": balance }\n'),
    ).toThrow(/h\.yaml:4: endpoints\.getBalance\.answer\.rename\.a\.\.b: not a dot path/)
  })

  it('refuses what is not a dot path, a type option on the wrong type, and a header template without {value}', () => {
    expect(() =>
      loadAdapter('a.yaml', 'endpoints:\n  announcement:\n    answer:\n      wrap: "list[]"\n'),
    ).toThrow(/^a\.yaml:4: endpoints\.announcement\.answer\.wrap: /)
    expect(() =>
      loadAdapter(
        'a.yaml',
        'endpoints:\n  getBalance:\n    answer:\n      types:\n        balance: { type: yn, zone: "+08:00" }\n',
      ),
    ).toThrow(/^a\.yaml:5: endpoints\.getBalance\.answer\.types\.balance\.zone: `zone` goes with datetime/)
    expect(() =>
      loadAdapter('a.yaml', 'headers:\n  rename:\n    token: { name: Authorization, value: Bearer }\n'),
    ).toThrow(/^a\.yaml:3: headers\.rename\.token\.value: must hold \{value\}/)
  })
})
