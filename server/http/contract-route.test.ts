import type { Endpoint } from '@shared/contract/endpoint'
import { ENDPOINTS } from '@shared/contract/registry'
import { looseEnvelopeSchema } from '@shared/envelope'
import { MSG } from '@shared/messages'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../test-support/test-app'

let t: TestApp
let token = ''

beforeAll(async () => {
  t = await createTestApp()
  token = (await t.login()).token
})
afterAll(() => t.close())

const SESSION_LOST = { code: 10001, msg: MSG.sessionExpired, data: null }

/** A request to `endpoint` whose body (or query) the contract refuses. */
function badRequest(endpoint: Endpoint, headers: Record<string, string>) {
  const url = `${endpoint.path}?page=x&page_size=-1&id=abc&player_id=abc&unknown=1`
  if (endpoint.method === 'GET') return { method: endpoint.method, url, headers }
  if (endpoint.encoding === 'multipart') {
    // A broken multipart body: the boundary never closes.
    return {
      method: endpoint.method,
      url,
      headers: { ...headers, 'content-type': 'multipart/form-data; boundary=xyz' },
      payload: '--xyz\r\nContent-Disposition: form-data; name="unknown"\r\n\r\n1',
    }
  }
  if (endpoint.encoding === 'json') {
    return {
      method: endpoint.method,
      url,
      headers: { ...headers, 'content-type': 'application/json' },
      payload: '{"not json',
    }
  }
  return {
    method: endpoint.method,
    url,
    headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'unknown_field=1&amount=lots',
  }
}

const AUTHED = ENDPOINTS.filter((e) => e.auth)

describe('endpoints that need a session', () => {
  it('are many', () => {
    expect(AUTHED.length).toBeGreaterThan(20)
  })

  for (const endpoint of AUTHED) {
    it(`${endpoint.method} ${endpoint.path} answers session-lost before reading an invalid body or query`, async () => {
      const calls: Record<string, string>[] = [{}, { token: 'not-a-live-token' }]
      for (const headers of calls) {
        const res = await t.app.inject(badRequest(endpoint, headers))
        expect(res.json(), JSON.stringify(headers)).toEqual(SESSION_LOST)
      }
    })
  }

  it('answer session-lost to a multipart or unknown body type before parsing it', async () => {
    for (const endpoint of AUTHED.filter((e) => e.method !== 'GET')) {
      for (const type of ['multipart/form-data; boundary=xyz', 'application/xml']) {
        const res = await t.app.inject({
          method: endpoint.method,
          url: endpoint.path,
          headers: { 'content-type': type },
          payload: '--xyz\r\nContent-Disposition: form-data; name="amount"\r\n\r\n1',
        })
        expect(res.json(), `${endpoint.id} ${type}`).toEqual(SESSION_LOST)
      }
    }
  })

  it('still validate the body once the session is known', async () => {
    for (const endpoint of AUTHED.filter((e) => e.body)) {
      const res = await t.app.inject(badRequest(endpoint, { token }))
      expect(res.statusCode, endpoint.id).toBe(400)
      expect(looseEnvelopeSchema.parse(res.json()).code, endpoint.id).toBe(40000)
    }
  })
})
