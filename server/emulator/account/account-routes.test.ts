import { createTestApp, DEMO, multipartBody, type TestApp } from '@server/test-support/test-app'
import { CODE } from '@shared/envelope'
import { MSG } from '@shared/messages'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

let t: TestApp
beforeEach(async () => {
  // Every answer below is parsed with its endpoint's answer schema before the test reads it.
  t = await createTestApp()
})
afterEach(async () => {
  await t.close()
})

const form = (fields: Record<string, string>, extra: Record<string, string> = {}) => ({
  payload: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...extra },
})

async function smsCode(phone: string): Promise<string> {
  const res = await t.app.inject({ method: 'GET', url: `/__emu/sms?phone=${phone}` })
  const rows = res.json().data as { code: string }[]
  const [row] = rows
  if (!row) throw new Error('no sms code')
  return row.code
}

async function registerAndLogin(phone: string, password = 'amber-otter-42') {
  const sms = await t.app.inject({
    method: 'POST',
    url: '/api/sms/send',
    ...form({ phone, purpose: 'register' }),
  })
  expect(sms.json()).toMatchObject({ code: 1, data: { resend_in: 60, expires_in: 300 } })
  const code = await smsCode(phone)
  const reg = await t.app.inject({
    method: 'POST',
    url: '/api/users/register',
    ...form({ phone, code, password }),
  })
  expect(reg.json()).toMatchObject({ code: 1 })
  return t.login(phone, password)
}

describe('accounts and sessions', () => {
  it('runs SMS → register → login → balance → info → change password → logout → 10001', async () => {
    const { token, playerId } = await registerAndLogin('13700137000')
    expect(token).toMatch(/^[0-9a-f]{32}$/)
    const headers = { token }
    const bal = await t.app.inject({ url: `/api/api/getBalance?player_id=${playerId}`, headers })
    expect(bal.json()).toEqual({ code: 1, msg: '成功', data: { balance: '0.00', trx_balance: '0.00' } })
    const info = await t.app.inject({ url: `/api/users/info?player_id=${playerId}`, headers })
    expect(info.json().data).toMatchObject({
      player_id: playerId,
      phone: '137***7000',
      has_pay_password: false,
    })

    const change = await t.app.inject({
      method: 'POST',
      url: '/api/users/change-password',
      ...form({ old_password: 'amber-otter-42', new_password: 'better456' }, headers),
    })
    expect(change.json()).toMatchObject({ code: 1 })
    await expect(t.login('13700137000', 'amber-otter-42')).rejects.toThrow()
    await t.login('13700137000', 'better456')

    const out = await t.app.inject({ method: 'POST', url: '/api/users/logout', headers })
    expect(out.json()).toMatchObject({ code: 1 })
    const after = await t.app.inject({ url: `/api/api/getBalance?player_id=${playerId}`, headers })
    expect(after.json()).toEqual({ code: CODE.sessionExpired, msg: MSG.sessionExpired, data: null })
  })

  it('gives 10001 for a missing, unknown or expired token', async () => {
    for (const headers of [{}, { token: 'f'.repeat(32) }]) {
      const res = await t.app.inject({ url: '/api/api/getBalance?player_id=1', headers })
      expect(res.json()).toMatchObject({ code: 10001, msg: '登录已失效!' })
    }
    const { token, playerId } = await t.login()
    t.clock.advance(7 * 24 * 3600 * 1000 + 1)
    const res = await t.app.inject({ url: `/api/api/getBalance?player_id=${playerId}`, headers: { token } })
    expect(res.json()).toMatchObject({ code: 10001 })
  })

  it('logs the demo player in with multipart and shows the seeded balance', async () => {
    const { token, playerId } = await t.login()
    const bal = await t.app.inject({ url: `/api/api/getBalance?player_id=${playerId}`, headers: { token } })
    expect(bal.json().data.balance).toBe('1000.00')
  })

  it('reads multipart only where the contract says so; urlencoded everywhere', async () => {
    // Login is multipart in the contract and also takes a urlencoded form.
    const urlencodedLogin = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      ...form({ phone: DEMO.phone, password: DEMO.password }),
    })
    expect(urlencodedLogin.json()).toMatchObject({ code: 1 })
    // Register is urlencoded: a multipart body is refused in the envelope, and nothing is written.
    const { payload, headers } = multipartBody({
      phone: '13700137002',
      code: '123456',
      password: 'amber-otter-42',
    })
    const res = await t.app.inject({ method: 'POST', url: '/api/users/register', payload, headers })
    expect(res.statusCode).toBe(415)
    expect(res.json()).toEqual({ code: CODE.invalidInput, msg: '不支持的请求体类型', data: null })
    const players = t.app.emu.db.prepare('SELECT COUNT(*) FROM players WHERE phone = ?').pluck()
    expect(players.get('13700137002')).toBe(0)
  })

  it('refuses bad input with a message naming the field, and writes nothing', async () => {
    const count = () => t.app.emu.db.prepare('SELECT COUNT(*) FROM players').pluck().get()
    const before = count()
    const cases: [Record<string, string>, RegExp][] = [
      [{ phone: '13700137001', code: '123456' }, /password 不能为空/],
      [{ phone: 'abc', code: '123456', password: 'amber-otter-42' }, /phone 手机号格式不正确/],
      [
        { phone: '13700137001', code: '123456', password: 'amber-otter-42', admin: '1' },
        /不支持的字段 admin/,
      ],
      [{ phone: '13700137001', code: '12', password: 'amber-otter-42' }, /code 验证码必须是6位数字/],
    ]
    for (const [fields, message] of cases) {
      const res = await t.app.inject({ method: 'POST', url: '/api/users/register', ...form(fields) })
      expect(res.statusCode).toBe(400)
      expect(res.json().code).toBe(CODE.invalidInput)
      expect(res.json().msg).toMatch(message)
    }
    const wrongCode = await t.app.inject({
      method: 'POST',
      url: '/api/users/register',
      ...form({ phone: '13700137001', code: '123456', password: 'amber-otter-42' }),
    })
    expect(wrongCode.json()).toMatchObject({ code: 0, msg: '验证码错误或已过期' })
    expect(count()).toBe(before)
  })

  it('refuses a 10 MB body with an envelope', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/register',
      payload: `phone=${'1'.repeat(10 * 1024 * 1024)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(res.statusCode).toBe(413)
    expect(res.json()).toEqual({ code: CODE.payloadTooLarge, msg: '请求内容过大', data: null })
  })

  it('checks the payment password: 6 digits, and the login password or an SMS code', async () => {
    const { token } = await t.login()
    const headers = { token }
    const nonNumeric = await t.app.inject({
      method: 'POST',
      url: '/api/api2/update-payment-password',
      ...form({ pay_password: '12ab56', login_password: DEMO.password }, headers),
    })
    expect(nonNumeric.json()).toMatchObject({ code: CODE.invalidInput })
    expect(nonNumeric.json().msg).toMatch(/pay_password 支付密码必须是6位数字/)
    const neither = await t.app.inject({
      method: 'POST',
      url: '/api/api2/update-payment-password',
      ...form({ pay_password: '112233' }, headers),
    })
    expect(neither.json().msg).toBe(
      '参数错误：body 请提供登录密码 login_password 或短信验证码 sms_code（二选一）',
    )
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/api2/update-payment-password',
      ...form({ pay_password: '112233', login_password: 'nope' }, headers),
    })
    expect(wrong.json()).toMatchObject({ code: 0, msg: '登录密码错误，还可尝试 4 次' })
    const sms = await t.app.inject({
      method: 'POST',
      url: '/api/sms/send',
      ...form({ purpose: 'pay_password' }, headers),
    })
    expect(sms.json().code).toBe(1)
    const code = await smsCode(DEMO.phone)
    const viaSms = await t.app.inject({
      method: 'POST',
      url: '/api/api2/update-payment-password',
      ...form({ pay_password: '112233', sms_code: code }, headers),
    })
    expect(viaSms.json()).toMatchObject({ code: 1 })
  })

  it('keeps SMS codes to a resend interval and an expiry', async () => {
    const phone = '13700137002'
    const send = () =>
      t.app.inject({ method: 'POST', url: '/api/sms/send', ...form({ phone, purpose: 'register' }) })
    expect((await send()).json().code).toBe(1)
    const again = (await send()).json()
    expect(again.code).toBe(CODE.rateLimited)
    expect(again.msg).toMatch(/60 秒后可重发/)
    const code = await smsCode(phone)
    t.clock.advance(5 * 60_000)
    const reg = await t.app.inject({
      method: 'POST',
      url: '/api/users/register',
      ...form({ phone, code, password: 'amber-otter-42' }),
    })
    expect(reg.json().msg).toBe('验证码错误或已过期')
  })

  it('answers rate-limited login in the envelope', async () => {
    const limited = await createTestApp({ RATE_LIMIT_LOGIN: '2' })
    try {
      const { payload, headers } = multipartBody({ phone: DEMO.phone, password: 'wrong' })
      const codes: number[] = []
      for (let i = 0; i < 3; i++) {
        const res = await limited.app.inject({ method: 'POST', url: '/api/login', payload, headers })
        codes.push(res.json().code)
        if (i === 2) {
          expect(res.statusCode).toBe(429)
          expect(res.json().msg).toMatch(/操作过于频繁/)
        }
      }
      expect(codes).toEqual([0, 0, CODE.rateLimited])
    } finally {
      await limited.close()
    }
  })
})
