import { Validator } from '@seriousme/openapi-schema-validator'
import { expectUnknownFieldsRefused } from '@server/test-support/strict-schemas'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BYTES_ENDPOINTS, ENDPOINTS } from '../shared/contract/registry'
import { createTestApp, type TestApp } from './test-support/test-app'

/** Every call the upstream serves (docs/product.md#calls). */
const SPEC_ENDPOINTS = [
  'GET /api/api2/announcement',
  'GET /api/api/getBalance',
  'POST /api/sms/send',
  'GET /api/users/info',
  'POST /api/users/logout',
  'POST /api/login',
  'POST /api/users/register',
  'POST /api/usdtpay',
  'GET /api/api2/wallets',
  'POST /api/api2/wallets/bind',
  'POST /api/wallets/set-default',
  'POST /api/wallets/delete',
  'POST /api/users/change-password',
  'POST /api/api2/withdraw',
  'GET /api/pay/get_pay_info_usdt',
  'GET /api/api/change_type',
  'GET /api/api2/fund-flow',
  'POST /api/api2/update-payment-password',
  'GET /api/api/getDepositHistory',
  'GET /api/api/getWithdrawalHistory',
  'GET /api/agent/info',
  'GET /api/agent/qrcode',
  'GET /api/agent/liusui_new',
  'GET /api/agent/childsearch',
  'GET /api/agent/rebateconfig',
  'GET /api/api2/bet/betaddress',
  'POST /api/api2/bet/bind',
  'POST /api/delete_bet_address',
  'POST /api/api2/bet/update',
]

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t.close()
})

describe('the contract', () => {
  it('has one object per spec endpoint, marked as the spec’s, with unique ids and paths', () => {
    expect(SPEC_ENDPOINTS).toHaveLength(29)
    const keys = ENDPOINTS.map((e) => `${e.method} ${e.path}`)
    expect(new Set(keys).size).toBe(keys.length)
    expect(new Set(ENDPOINTS.map((e) => e.id)).size).toBe(ENDPOINTS.length)
    for (const key of SPEC_ENDPOINTS) {
      const endpoint = ENDPOINTS.find((e) => `${e.method} ${e.path}` === key)
      expect(endpoint, key).toBeDefined()
      expect(endpoint?.source, key).toBe('spec')
    }
    for (const e of ENDPOINTS) {
      if (!SPEC_ENDPOINTS.includes(`${e.method} ${e.path}`)) expect(e.source, e.id).toBe('ours')
    }
  })

  it('refuses unknown fields in every request schema', () => {
    expectUnknownFieldsRefused(ENDPOINTS)
  })
})

describe('/api-docs', () => {
  it('serves an OpenAPI document that lists every spec endpoint and passes a standard validator', async () => {
    const res = await t.app.inject({ url: '/api-docs/json' })
    expect(res.statusCode).toBe(200)
    const doc = res.json() as { openapi: string; paths: Record<string, Record<string, unknown>> }
    for (const key of SPEC_ENDPOINTS) {
      const [method = '', path = ''] = key.split(' ')
      expect(doc.paths[path]?.[method.toLowerCase()], key).toBeDefined()
    }
    // The image routes, whose success is bytes and not the envelope, are there too.
    for (const e of BYTES_ENDPOINTS) {
      const op = doc.paths[e.path.replace(/:(\w+)/g, '{$1}')]?.get as { responses: Record<string, unknown> }
      expect(op, e.id).toMatchObject({ operationId: e.id, 'x-bytes': true })
      expect(Object.keys((op.responses['200'] as { content: object }).content)).toEqual([...e.answer.types])
    }
    const validator = new Validator()
    const result = await validator.validate(doc)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
  })

  it('serves the documentation page', async () => {
    const res = await t.app.inject({ url: '/api-docs' })
    expect([200, 302]).toContain(res.statusCode)
  })
})
