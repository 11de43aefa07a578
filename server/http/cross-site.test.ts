import { listSms } from '@shared/emu-contract/control'
import { CODE } from '@shared/envelope'
import { SERVER_MSG } from '@shared/messages'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseAnswer } from '../test-support/answers'
import { createTestApp, type TestApp } from '../test-support/test-app'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const REFUSED = { code: CODE.crossSite, msg: SERVER_MSG.crossSite, data: null }

const definedOnly = (headers: Readonly<Record<string, string | undefined>>) =>
  Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => e[1] !== undefined))

let phoneSeq = 13_700_000_000
/** An SMS request for a fresh phone, sent as an HTML form would send it, with these extra headers. */
async function sendSms(headers: Readonly<Record<string, string | undefined>>) {
  const phone = String(phoneSeq++)
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/sms/send',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...definedOnly(headers) },
    payload: `phone=${phone}&purpose=register`,
  })
  const codes = await t.app.inject({ url: `/__emu/sms?phone=${phone}` })
  return { res, sent: parseAnswer(listSms, codes.json()).data.length }
}

describe('cross-site writes', () => {
  it('are refused when the browser says the page is on another site, before anything is done', async () => {
    for (const headers of [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'cross-site', origin: 'http://localhost:80' },
      { origin: 'https://evil.example' },
      { origin: 'http://localhost:8080' },
      { origin: 'null' },
    ]) {
      const { res, sent } = await sendSms(headers)
      expect(res.statusCode, JSON.stringify(headers)).toBe(403)
      expect(res.json()).toEqual(REFUSED)
      expect(res.headers['cache-control']).toBe('no-store')
      expect(sent).toBe(0)
    }
  })

  it('are served from the same origin or site, and from clients that are not browsers', async () => {
    for (const headers of [
      {},
      { 'sec-fetch-site': 'same-origin', origin: 'http://localhost:80' },
      { 'sec-fetch-site': 'same-site', origin: 'https://www.localhost' },
      { 'sec-fetch-site': 'none' },
      { origin: 'http://localhost:80' },
      { origin: 'http://localhost', host: 'localhost' },
      { origin: 'https://shop.example', host: 'shop.example:443' },
    ]) {
      const { res, sent } = await sendSms(headers)
      expect(res.json(), JSON.stringify(headers)).toMatchObject({ code: CODE.ok })
      expect(sent).toBe(1)
    }
  })

  it('leave reads from other sites alone', async () => {
    const res = await t.app.inject({
      url: '/api/api2/announcement',
      headers: { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
    })
    expect(res.json()).toMatchObject({ code: CODE.ok })
  })

  it('to the control API are refused too', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/__emu/reset',
      headers: { 'sec-fetch-site': 'cross-site' },
    })
    expect(res.statusCode).toBe(403)
    expect(res.json()).toEqual(REFUSED)
  })
})
