import { getBalance, logout } from '@shared/contract/account'
import { ENDPOINTS } from '@shared/contract/registry'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { compareWithSchema, describeValue } from '../server/upstream/compare-answer'
import { judgeAnswer, walkPlan } from './upstream-conformance'

describe('compareWithSchema', () => {
  const schema = z.object({
    amount: z.string().regex(/^\d+\.\d+$/),
    kind: z.enum(['a', 'b']),
    at: z.number().int().nullable(),
    items: z.array(z.object({ id: z.number().int(), ok: z.boolean() })),
    owner: z.object({ name: z.string() }).nullable(),
  })
  const good = { amount: '1.00', kind: 'a', at: null, items: [{ id: 1, ok: true }], owner: { name: 'x' } }

  it('finds nothing in a conforming value', () => {
    expect(compareWithSchema(schema, good, 'data')).toEqual([])
  })

  it('names a renamed field twice: missing under its name, extra under the new one', () => {
    const { amount, ...rest } = good
    expect(compareWithSchema(schema, { ...rest, amt: amount }, 'data')).toEqual([
      { path: 'data.amount', expected: 'string', got: 'missing' },
      { path: 'data.amt', expected: 'no such field in the contract', got: 'string "1.00"', extra: true },
    ])
  })

  it('names a retyped field, a bad format and a value outside an enum', () => {
    expect(compareWithSchema(schema, { ...good, amount: 12, kind: 'c', at: 1.5 }, 'data')).toEqual([
      { path: 'data.amount', expected: 'string', got: 'number 12' },
      { path: 'data.kind', expected: 'one of "a", "b"', got: 'string "c"' },
      { path: 'data.at', expected: 'integer', got: 'number 1.5' },
    ])
    expect(compareWithSchema(schema, { ...good, amount: '12' }, 'data')).toEqual([
      { path: 'data.amount', expected: 'string matching /^\\d+\\.\\d+$/', got: 'string "12"' },
    ])
  })

  it('folds the same mismatch over array items into one, with how many', () => {
    const items = [1, 2, 3].map((id) => ({ id, ok: 1, extra: 'x' }))
    expect(compareWithSchema(schema, { ...good, items }, 'data')).toEqual([
      { path: 'data.items[0].ok', expected: 'boolean', got: 'number 1', times: 3 },
      {
        path: 'data.items[0].extra',
        expected: 'no such field in the contract',
        got: 'string "x"',
        extra: true,
        times: 3,
      },
    ])
  })

  it('looks into a nullable object for extra fields', () => {
    expect(compareWithSchema(schema, { ...good, owner: { name: 'x', age: 3 } }, 'data')).toEqual([
      { path: 'data.owner.age', expected: 'no such field in the contract', got: 'number 3', extra: true },
    ])
  })

  it('says what any branch of a union of literals would take', () => {
    expect(compareWithSchema(z.union([z.literal(1), z.literal(200)]), 3)).toEqual([
      { path: '', expected: '1 or 200', got: 'number 3' },
    ])
  })
})

describe('judgeAnswer', () => {
  it('passes a success envelope whose data matches', () => {
    const v = judgeAnswer(getBalance, 200, {
      code: 1,
      msg: 'ok',
      data: { balance: '1.00', trx_balance: '0.00' },
    })
    expect(v).toEqual({ code: 1, msg: 'ok', conforms: true, mismatches: [] })
  })

  it('takes `message` for `msg`, and 200 as a success code', () => {
    const v = judgeAnswer(logout, 200, { code: 200, message: 'ok', data: null })
    expect(v.conforms).toBe(true)
  })

  it('fails an envelope without a message', () => {
    const v = judgeAnswer(logout, 200, { code: 1, data: null })
    expect(v.conforms).toBe(false)
    expect(v.mismatches).toEqual([{ path: 'msg', expected: 'string (or message)', got: 'missing' }])
  })

  it('fails a page that is not an envelope, naming the status and the body', () => {
    const v = judgeAnswer(getBalance, 404, '<html>Not Found</html>')
    expect(v.conforms).toBe(false)
    expect(v.mismatches).toEqual([
      { path: '(http status)', expected: '2xx', got: '404' },
      {
        path: '(body)',
        expected: 'a JSON envelope {code, msg, data}',
        got: 'not JSON: string "<html>Not Found</html>"',
      },
    ])
  })

  it('fails a refusal and a lost session, with their code and message', () => {
    expect(judgeAnswer(getBalance, 200, { code: 40400, msg: '接口不存在', data: null }).mismatches).toEqual([
      { path: 'code', expected: 'a success code (1 or 200)', got: '40400 (refused: 接口不存在)' },
    ])
    expect(
      judgeAnswer(getBalance, 200, { code: 10001, msg: '登录已失效!', data: null }).mismatches[0]?.got,
    ).toBe('10001 (session lost: 登录已失效!)')
  })

  it('fails data that differs, and passes extra fields as notes only', () => {
    const differs = judgeAnswer(getBalance, 200, {
      code: 1,
      msg: 'ok',
      data: { balance: 1, trx_balance: '0.00' },
    })
    expect(differs.conforms).toBe(false)
    expect(differs.mismatches).toEqual([{ path: 'data.balance', expected: 'string', got: 'number 1' }])
    const extra = judgeAnswer(getBalance, 200, {
      code: 1,
      msg: 'ok',
      data: { balance: '1.00', trx_balance: '0.00', frozen: '0.00' },
      trace: 'x',
    })
    expect(extra.conforms).toBe(true)
    expect(extra.mismatches.map((m) => m.path)).toEqual(['trace', 'data.frozen'])
  })
})

describe('walkPlan', () => {
  const plan = walkPlan()

  it('covers every endpoint of the contract, each step named once', () => {
    expect(new Set(plan.map((s) => s.endpoint.id))).toEqual(new Set(ENDPOINTS.map((e) => e.id)))
    expect(new Set(plan.map((s) => s.name)).size).toBe(plan.length)
  })

  it('logs in first, reads before any write, logs out last', () => {
    expect(plan[0]?.endpoint.id).toBe('login')
    expect(plan.at(-1)?.endpoint.id).toBe('logout')
    const lastRead = plan.findLastIndex((s) => s.kind === 'read')
    const firstWrite = plan.findIndex((s) => s.kind === 'write')
    expect(lastRead).toBeLessThan(firstWrite)
  })

  it('reads every GET endpoint: none is a write or left out', () => {
    for (const step of plan) {
      if (step.endpoint.method === 'GET') expect(step.kind, step.name).toBe('read')
    }
  })

  it('undoes each write that has an undo after it', () => {
    const at = (name: string) => plan.findIndex((s) => s.name === name)
    expect(at('bindWallet')).toBeLessThan(at('deleteWallet'))
    expect(at('bindBetAddress')).toBeLessThan(at('deleteBetAddress'))
    expect(at('setRealityCheck')).toBeLessThan(at('setRealityCheck:undo'))
  })

  it('never calls what moves money or cannot be undone', () => {
    const never = plan.filter((s) => s.kind === 'never').map((s) => s.endpoint.id)
    for (const id of ['withdraw', 'exchange', 'placeBets', 'usdtPay', 'rebateClaim', 'startExclusion']) {
      expect(never).toContain(id)
    }
    for (const e of ENDPOINTS.filter((e) => e.idempotent)) expect(never, e.id).toContain(e.id)
  })
})

describe('describeValue', () => {
  it('says what came in a few words', () => {
    expect(describeValue(undefined)).toBe('missing')
    expect(describeValue([1, 2])).toBe('array (2 items)')
    expect(describeValue('x'.repeat(50))).toBe(`string "${'x'.repeat(40)}…"`)
    expect(describeValue(true)).toBe('boolean true')
  })
})
