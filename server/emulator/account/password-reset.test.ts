import { CODE } from '@shared/envelope'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, DEMO, type TestApp } from '../../test-support/test-app'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const form = (fields: Record<string, string>) => ({
  payload: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
})
const post = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) => {
  const f = form(fields)
  return t.app.inject({ method: 'POST', url, payload: f.payload, headers: { ...f.headers, ...headers } })
}
const codeFor = async (phone: string) => {
  const sms = (await t.app.inject({ url: `/__emu/sms?phone=${phone}` })).json().data as {
    purpose: string
    code: string
  }[]
  return sms.find((s) => s.purpose === 'reset_password')?.code
}

describe('a forgotten login password', () => {
  it('is replaced with an SMS code to the account’s phone; every session ends; the new password logs in', async () => {
    const before = await t.login()
    const other = await t.login()
    expect((await post('/api/sms/send', { purpose: 'reset_password', phone: DEMO.phone })).json().code).toBe(
      1,
    )
    const code = (await codeFor(DEMO.phone)) ?? ''
    expect(code).toMatch(/^\d{6}$/)
    const res = await post('/api/users/reset-password', {
      phone: DEMO.phone,
      code,
      new_password: 'Fresh-Start-2026',
    })
    expect(res.json()).toEqual({ code: 1, msg: '成功', data: null })
    for (const { token } of [before, other]) {
      const info = await t.app.inject({
        url: `/api/users/info?player_id=${before.playerId}`,
        headers: { token },
      })
      expect(info.json().code).toBe(CODE.sessionExpired)
    }
    await expect(t.login(DEMO.phone, DEMO.password)).rejects.toThrow()
    await t.login(DEMO.phone, 'Fresh-Start-2026')
    // The code is burnt: it cannot be used twice.
    const again = await post('/api/users/reset-password', {
      phone: DEMO.phone,
      code,
      new_password: DEMO.password,
    })
    expect(again.json().code).not.toBe(1)
  })

  it('counts wrong codes: five burn the code, the right one then fails too', async () => {
    const phone = '13611112222'
    const reg = await post('/api/sms/send', { purpose: 'register', phone })
    expect(reg.json().code).toBe(1)
    const regCode = (await t.app.inject({ url: `/__emu/sms?phone=${phone}` })).json().data[0].code as string
    expect(
      (await post('/api/users/register', { phone, code: regCode, password: 'First-Password-1' })).json().code,
    ).toBe(1)
    await post('/api/sms/send', { purpose: 'reset_password', phone })
    const code = (await codeFor(phone)) ?? ''
    const wrong = code === '000000' ? '111111' : '000000'
    for (let i = 0; i < 5; i++) {
      const res = await post('/api/users/reset-password', {
        phone,
        code: wrong,
        new_password: 'Second-Password-2',
      })
      expect(res.json().code).not.toBe(1)
    }
    const right = await post('/api/users/reset-password', { phone, code, new_password: 'Second-Password-2' })
    expect(right.json().code).not.toBe(1)
    await t.login(phone, 'First-Password-1')
  })

  it('tells no one which phones have accounts, and refuses a common new password', async () => {
    const unknown = await post('/api/sms/send', { purpose: 'reset_password', phone: '13700137000' })
    expect(unknown.json()).toMatchObject({ code: 1, data: { resend_in: 60 } })
    expect(await codeFor('13700137000')).toBeUndefined()
    const reset = await post('/api/users/reset-password', {
      phone: '13700137000',
      code: '123456',
      new_password: 'Whatever-77',
    })
    expect(reset.json().msg).toBe(
      (
        await post('/api/users/reset-password', {
          phone: DEMO.phone,
          code: '999999',
          new_password: 'Whatever-77',
        })
      ).json().msg,
    )
    const common = await post('/api/users/reset-password', {
      phone: DEMO.phone,
      code: '123456',
      new_password: '88888888',
    })
    expect(common.json().code).toBe(CODE.invalidInput)
  })
})
