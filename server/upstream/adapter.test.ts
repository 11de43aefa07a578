import { join } from 'node:path'
import { getBalance, login } from '@shared/contract/account'
import { placeBets } from '@shared/contract/games'
import { fundFlow, getDepositOrder } from '@shared/contract/wallet'
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
