import { verifyPassword } from '@server/emulator/account/passwords'
import { parseAnswer } from '@server/test-support/answers'
import { createTestApp, DEMO, type TestApp } from '@server/test-support/test-app'
import { changePassword, updatePaymentPassword } from '@shared/contract/account'
import type { Endpoint } from '@shared/contract/endpoint'
import { bindWallet, getWithdrawConfig } from '@shared/contract/wallet'
import { tronAddressFromAccountId } from '@shared/tron'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { z } from 'zod'

// Every hash comparison is counted, so a test can see how many guesses reached one.
vi.mock('@server/emulator/account/passwords', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@server/emulator/account/passwords')>()
  return { ...actual, verifyPassword: vi.fn(actual.verifyPassword) }
})
const verified = vi.mocked(verifyPassword)

let t: TestApp
let token: string

beforeEach(async () => {
  t = await createTestApp()
  ;({ token } = await t.login())
  verified.mockClear()
})
afterEach(async () => {
  await t.close()
})

const ADDR = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'

async function post(e: Endpoint, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await t.app.inject({
    method: 'POST',
    url: e.path,
    payload: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', token, ...headers },
  })
  expect(res.statusCode).toBeLessThan(500)
  return parseAnswer<z.ZodType>(e, res.json())
}

/** `n` distinct valid addresses. */
const addresses = (n: number) =>
  Array.from({ length: n }, (_, i) => tronAddressFromAccountId(new Uint8Array(20).fill(i + 1)))

const bind = (pay: string, headers: Record<string, string> = {}) =>
  post(bindWallet, { address: ADDR, label: '主钱包', pay_password: pay }, headers)

/** What a player sees of a refusal: its code and message (its data is always null). */
const answer = (e: { code: number; msg: string }) => ({ code: e.code, msg: e.msg })

describe('the payment-password lock under parallel guesses', () => {
  it('compares at most 3 of 30 parallel wrong guesses, and answers the rest with the lock', async () => {
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => bind(String(100000 + i))))
    expect(verified.mock.calls.length).toBeLessThanOrEqual(3)
    expect(answers.filter((a) => a.msg?.startsWith('支付密码错误，还可尝试')).length).toBe(2)
    expect(answers.filter((a) => a.msg === '支付密码错误次数过多，提现已锁定 3小时').length).toBe(1)
    expect(answers.filter((a) => a.msg === '支付密码错误次数过多，请 3小时后再试').length).toBe(27)
    const cfg = parseAnswer(
      getWithdrawConfig,
      (await t.app.inject({ url: getWithdrawConfig.path, headers: { token } })).json(),
    )
    expect(cfg.data).toMatchObject({ pay_password_attempts_left: 0 })
  })

  it('answers a right guess behind 29 wrong ones exactly as it answers the wrong ones', async () => {
    const guesses = [...Array.from({ length: 29 }, (_, i) => String(200000 + i)), DEMO.payPassword]
    const answers = await Promise.all(guesses.map((g) => bind(g)))
    expect(verified.mock.calls.length).toBeLessThanOrEqual(3)
    const right = answers[29]
    const wrong = answers[28]
    if (!right || !wrong) throw new Error('missing answers')
    expect(answer(right)).toEqual(answer(wrong))
    expect(right.msg).toBe('支付密码错误次数过多，请 3小时后再试')
    // Once locked, the right password alone is answered like a wrong one.
    verified.mockClear()
    expect(answer(await bind(DEMO.payPassword))).toEqual(answer(await bind('999999')))
    expect(verified).not.toHaveBeenCalled()
  })

  it('a right guess among the first counted succeeds, and the wrong ones around it still count', async () => {
    const guesses = [DEMO.payPassword, ...Array.from({ length: 29 }, (_, i) => String(300000 + i))]
    const answers = await Promise.all(guesses.map((g) => bind(g)))
    // Counted with it: at most 2 wrong ones, which a right answer before theirs forgives. After it
    // the right one frees only its own try: 3 wrong ones at most are compared, then the lock.
    expect(verified.mock.calls.length).toBeLessThanOrEqual(1 + 2 + 3)
    expect(answers[0]?.code).toBe(1)
    expect(answers.filter((a) => a.msg === '支付密码错误次数过多，提现已锁定 3小时')).toHaveLength(1)
    expect(answers.filter((a) => a.msg === '支付密码错误次数过多，请 3小时后再试').length).toBeGreaterThan(20)
  })

  it('right passwords sent in parallel are never answered "locked"', async () => {
    // Five, as many addresses as a player may bind.
    const answers = await Promise.all(
      addresses(5).map((address, i) =>
        post(bindWallet, { address, label: `钱包${i}`, pay_password: DEMO.payPassword }),
      ),
    )
    expect(answers.filter((a) => a.msg?.includes('锁定') || a.msg?.includes('后再试'))).toEqual([])
    const cfg = parseAnswer(
      getWithdrawConfig,
      (await t.app.inject({ url: getWithdrawConfig.path, headers: { token } })).json(),
    )
    expect(cfg.data).toMatchObject({ locked_until: null, pay_password_attempts_left: 3 })
  })

  it('right and wrong passwords mixed in parallel: the right ones pass, the count holds only the wrong', async () => {
    const guesses = [
      '111111',
      DEMO.payPassword,
      DEMO.payPassword,
      '222222',
      DEMO.payPassword,
      DEMO.payPassword,
    ]
    const to = addresses(guesses.length)
    const answers = await Promise.all(
      guesses.map((pay_password, i) => post(bindWallet, { address: to[i] ?? '', label: 'x', pay_password })),
    )
    guesses.forEach((g, i) => {
      if (g === DEMO.payPassword) expect(answers[i]?.code).toBe(1)
      else expect(answers[i]?.msg).toMatch(/^支付密码错误，还可尝试 \d 次$/)
    })
  })

  it("a scope's clock far past the lock's end does not lift it", async () => {
    for (const g of ['111111', '222222', '333333']) await bind(g)
    // A day on: past the 3-hour lock, within the session's life (sessions do follow the scope's clock).
    t.clock.forScope('far-future').advance(24 * 3_600_000)
    const scoped = await bind(DEMO.payPassword, { 'x-emu-scope': 'far-future' })
    expect(scoped.msg).toBe('支付密码错误次数过多，请 3小时后再试')
    const res = await t.app.inject({
      url: getWithdrawConfig.path,
      headers: { token, 'x-emu-scope': 'far-future' },
    })
    const cfg = parseAnswer(getWithdrawConfig, res.json())
    expect(cfg.data).toMatchObject({ pay_password_attempts_left: 0 })
    // The world clock does lift it.
    t.clock.advance(3 * 3_600_000)
    expect((await bind(DEMO.payPassword)).code).toBe(1)
  })
})

describe('the login password checked behind a session', () => {
  const updatePay = (login_password: string) =>
    post(updatePaymentPassword, { pay_password: '654321', login_password })
  const change = (old_password: string) =>
    post(changePassword, { old_password, new_password: 'a fresh passphrase' })

  it('locks after 5 wrong ones in a row, refusing even the right one', async () => {
    expect((await updatePay('wrong-1')).msg).toBe('登录密码错误，还可尝试 4 次')
    expect((await change('wrong-2')).msg).toBe('原密码错误，还可尝试 3 次')
    await updatePay('wrong-3')
    await updatePay('wrong-4')
    expect((await change('wrong-5')).msg).toBe('登录密码错误次数过多，已锁定 30分钟')
    verified.mockClear()
    const locked = await updatePay(DEMO.password)
    expect(locked.msg).toBe('登录密码错误次数过多，请 30分钟后再试')
    expect(answer(await change(DEMO.password))).toEqual(answer(locked))
    expect(verified).not.toHaveBeenCalled()
    // A scope's clock does not lift it; the world's does.
    t.clock.forScope('far-future').advance(24 * 3_600_000)
    expect(
      answer(
        await post(
          changePassword,
          { old_password: DEMO.password, new_password: 'x fresh pass' },
          { 'x-emu-scope': 'far-future' },
        ),
      ),
    ).toEqual(answer(locked))
    t.clock.advance(30 * 60_000)
    expect((await updatePay(DEMO.password)).code).toBe(1)
  })

  it('compares at most 5 of 30 parallel guesses', async () => {
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 ? updatePay(`guess-${i}`) : change(`guess-${i}`))),
    )
    expect(verified.mock.calls.length).toBeLessThanOrEqual(5)
    expect(answers.filter((a) => a.msg === '登录密码错误次数过多，请 30分钟后再试').length).toBe(25)
  })

  it('right passwords sent in parallel are never answered "locked"', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => updatePay(DEMO.password)))
    expect(answers.map((a) => a.code)).toEqual(Array(8).fill(1))
    expect((await change('wrong-1')).msg).toBe('原密码错误，还可尝试 4 次')
  })

  it('a right password in between starts the count again', async () => {
    await updatePay('wrong-1')
    await updatePay('wrong-2')
    expect((await updatePay(DEMO.password)).code).toBe(1)
    expect((await change('wrong-3')).msg).toBe('原密码错误，还可尝试 4 次')
  })
})
