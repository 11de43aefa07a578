import { parseAnswer } from '@server/test-support/answers'
import { createTestApp, DEMO, type TestApp } from '@server/test-support/test-app'
import { changePassword, register as registerEndpoint } from '@shared/contract/account'
import { PASSWORD_MSG } from '@shared/contract/fields'
import { listSms } from '@shared/emu-contract/control'
import { CODE } from '@shared/envelope'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

let t: TestApp
beforeEach(async () => {
  t = await createTestApp()
})
afterEach(async () => {
  await t.close()
})

let nextPhone = 13600136000
const form = (fields: Record<string, string>, headers: Record<string, string> = {}) => ({
  payload: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
})

async function register(password: string) {
  const phone = String(nextPhone++)
  await t.app.inject({ method: 'POST', url: '/api/sms/send', ...form({ phone, purpose: 'register' }) })
  const sms = await t.app.inject({ url: `/__emu/sms?phone=${phone}` })
  const code = String(parseAnswer(listSms, sms.json()).data[0]?.code)
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/users/register',
    ...form({ phone, code, password }),
  })
  return { phone, status: res.statusCode, body: parseAnswer(registerEndpoint, res.json()) }
}

describe('new passwords (OWASP ASVS 5.0 level 1)', () => {
  it.each([
    ['8 letters, no digit', 'lumenfox'],
    ['8 Chinese characters', '春眠不觉晓处闻啼'],
    ['Cyrillic with spaces', 'тихая река течёт'],
    ['8 emoji (16 UTF-16 units)', '🐉🌊🍀🎲🚀🌙🔥🎯'],
    ['100 emoji: 100 characters, 200 UTF-16 units', `${'🐉'.repeat(50)}${'🌊'.repeat(50)}`],
    ['128 characters', `${'x'.repeat(120)}-7ab3c9d`],
  ])('accepts %s, and it logs in', async (_, password) => {
    const reg = await register(password)
    expect(reg.body).toMatchObject({ code: 1 })
    expect((await t.login(reg.phone, password)).token).toBeTruthy()
  })

  it.each([
    ['7 characters', 'qzx-7ab', PASSWORD_MSG.tooShort],
    ['129 characters', 'y'.repeat(129), PASSWORD_MSG.tooLong],
    ['7 emoji (14 UTF-16 units)', '🐉🌊🍀🎲🚀🌙🔥', PASSWORD_MSG.tooShort],
  ])('refuses %s with a 400 naming the field', async (_, password, msg) => {
    const reg = await register(password)
    expect(reg.status).toBe(400)
    expect(reg.body).toMatchObject({ code: CODE.invalidInput, msg: `参数错误：password ${msg}` })
  })

  it.each(['password1', 'Password1', 'qwertyuiop', '12345678', 'iloveyou'])(
    'refuses the common password %s on register',
    async (password) => {
      const reg = await register(password)
      expect(reg.status).toBe(400)
      expect(reg.body).toMatchObject({
        code: CODE.invalidInput,
        msg: `参数错误：password ${PASSWORD_MSG.common}`,
      })
      expect(
        t.app.emu.db.prepare('SELECT COUNT(*) FROM players WHERE phone = ?').pluck().get(reg.phone),
      ).toBe(0)
    },
  )

  it.each([
    '00000000',
    '88888888',
    '123123123',
    'woaini1314',
    '5201314520',
    'wang1234',
    'zhang123456',
    '1qaz2wsx',
    '147258369',
    '19900101',
    'qq5201314',
    'Woaini1314',
  ])('refuses %s, which leads the Chinese breach lists, on register', async (password) => {
    const reg = await register(password)
    expect(reg.status).toBe(400)
    expect(reg.body).toMatchObject({ msg: `参数错误：password ${PASSWORD_MSG.common}` })
  })

  it('refuses a common new password on change-password, and keeps the old one', async () => {
    const { token } = await t.login()
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/change-password',
      ...form({ old_password: DEMO.password, new_password: 'sunshine1' }, { token }),
    })
    expect(res.statusCode).toBe(400)
    expect(parseAnswer(changePassword, res.json())).toMatchObject({
      code: CODE.invalidInput,
      msg: `参数错误：new_password ${PASSWORD_MSG.common}`,
    })
    expect((await t.login(DEMO.phone, DEMO.password)).token).toBeTruthy()
  })

  it('the seeded players still log in with their passwords', async () => {
    expect((await t.login(DEMO.phone, DEMO.password)).token).toBeTruthy()
    expect((await t.login('13900139000', 'friend1234')).token).toBeTruthy()
  })
})
