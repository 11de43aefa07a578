import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { looseEnvelopeSchema } from '../../shared/envelope'
import { createTestApp, type TestApp } from '../test-support/test-app'

let t: TestApp
let token = ''

beforeAll(async () => {
  t = await createTestApp()
  token = (await t.login()).token
})
afterAll(() => t.close())

const ADDRESS = 'THHokCProneknUpbJfWrE2SzhgP11T1J1g'
const OTHER_ADDRESS = 'TTbh7qmTJjhe5cRQjWHqLg1nDh7nZdED1R'

describe('amounts beyond the exact range', () => {
  const TOO_BIG = ['9007199254.740992', '9007199254.75', '99999999999', '999999999999.999999']
  const calls: {
    name: string
    url: string
    json?: boolean
    body: (amount: string) => Record<string, unknown>
  }[] = [
    { name: 'top-up', url: '/api/usdtpay', body: (amount) => ({ amount }) },
    { name: 'exchange', url: '/api/api/exchange', body: (amount) => ({ from: 'USDT', to: 'TRX', amount }) },
    {
      name: 'withdraw',
      url: '/api/api2/withdraw',
      body: (amount) => ({ wallet_id: '1', amount, pay_password: '123456' }),
    },
    {
      name: 'bet',
      url: '/api/games/bet',
      json: true,
      body: (amount) => ({ game: 'qukuai', round_id: '1', bets: [{ bet_type: 'big', amount }] }),
    },
    {
      name: 'transfer',
      url: '/api/games/transfer',
      body: (amount) => ({ from_address: ADDRESS, to_address: OTHER_ADDRESS, amount }),
    },
  ]

  for (const call of calls) {
    it(`are refused with a 400 envelope naming the amount on ${call.name}`, async () => {
      for (const amount of TOO_BIG) {
        const body = call.body(amount)
        const res = await t.app.inject({
          method: 'POST',
          url: call.url,
          headers: {
            token,
            'content-type': call.json ? 'application/json' : 'application/x-www-form-urlencoded',
          },
          payload: call.json
            ? JSON.stringify(body)
            : new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)])).toString(),
        })
        expect(res.statusCode, `${call.name} ${amount}`).toBe(400)
        const env = looseEnvelopeSchema.parse(res.json())
        expect(env.code).toBe(40000)
        expect(env.msg).toContain('金额超出范围')
      }
    })
  }

  it('still takes the largest exact amount as an amount (refused by the business rules, not the format)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/usdtpay',
      headers: { token, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'amount=9007199254.740991',
    })
    expect(res.statusCode).toBe(200)
    expect(looseEnvelopeSchema.parse(res.json()).msg).not.toContain('金额超出范围')
  })
})
