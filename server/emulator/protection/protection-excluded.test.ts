import { toMicro } from '@shared/money'
import { tronAddressFromAccountId } from '@shared/tron'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type Env, type GamesKit, gamesKit, T0 } from '../games/games-test-kit'

/** A player who never bound an address nor set a payment password, with 100 USDT, then a time-out. */
let kit: GamesKit
let playerId: number
const PHONE = '13700000000'
const PASSWORD = 'player1234'
const ADDR = tronAddressFromAccountId(new Uint8Array(20).fill(7))

const form = (fields: Record<string, string>) => ({
  payload: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
})
const post = (url: string, fields: Record<string, string>, token = '') => {
  const f = form(fields)
  return kit.call({ method: 'POST', url, payload: f.payload, headers: { ...f.headers, token } })
}
const smsCode = async (): Promise<string> => {
  const list = await kit.call({ method: 'GET', url: `/__emu/sms?phone=${PHONE}` })
  return list.data.find((s: { purpose: string }) => s.purpose === 'excluded')?.code
}

beforeEach(async () => {
  kit = await gamesKit(T0, 1)
  const player = kit.players[2]
  if (!player) throw new Error('no new player')
  playerId = player.playerId
  const order = await post('/api/usdtpay', { amount: '100' }, player.token)
  await kit.call({ method: 'POST', url: `/__emu/deposits/${order.data.id}/confirm` })
  expect(kit.balanceMicro(playerId)).toBeGreaterThanOrEqual(toMicro('100'))
  const excluded = await post('/api/protection/exclusion', { period: '7d', password: PASSWORD }, player.token)
  expect(excluded.code).toBe(1)
})
afterEach(async () => {
  await kit.t.close()
})

const proof = { phone: PHONE, password: PASSWORD }

describe('the protected withdrawal flow for a player with no address and no payment password', () => {
  it('shows the balance and the fee, then binds, sets the payment password and withdraws', async () => {
    const account = await post('/api/protection/excluded/account', proof)
    expect(account.code).toBe(1)
    expect(account.data).toMatchObject({
      kind: 'timeout',
      phone: '137***0000',
      withdraw: { has_pay_password: false },
      wallets: { list: [] },
    })
    expect(account.data.withdraw.fee).toMatch(/^\d+\.\d\d$/)
    const balance = kit.balanceMicro(playerId)
    expect(toMicro(account.data.withdraw.balance)).toBe(balance)
    // No address yet: what the page used to hit.
    const early = await post('/api/protection/withdraw', { ...proof, amount: '20', pay_password: '135790' })
    expect(early.msg).toBe('请先绑定提现地址')

    expect((await post('/api/protection/excluded/sms', proof)).code).toBe(1)
    const code = await smsCode()
    // Binding without a payment password to set is refused before the code is spent.
    const noPay = await post('/api/protection/excluded/setup', { ...proof, sms_code: code, address: ADDR })
    expect(noPay.msg).toBe('请先设置支付密码（6位数字），再绑定提现地址')
    const setup: Env = await post('/api/protection/excluded/setup', {
      ...proof,
      sms_code: code,
      address: ADDR,
      label: '我的钱包',
      pay_password: '135790',
    })
    expect(setup.code).toBe(1)
    expect(setup.data.withdraw.has_pay_password).toBe(true)
    expect(setup.data.wallets.list).toMatchObject([{ address: ADDR, label: '我的钱包', is_default: true }])
    // The code is spent.
    const reused = await post('/api/protection/excluded/setup', {
      ...proof,
      sms_code: code,
      pay_password: '111222',
    })
    expect(reused.code).not.toBe(1)

    const sent = await post('/api/protection/withdraw', { ...proof, amount: '20', pay_password: '135790' })
    expect(sent.code).toBe(1)
    expect(kit.balanceMicro(playerId)).toBe(balance - toMicro('20') - toMicro(sent.data.fee))
  })

  it('needs the login password, counted in its lock, and a right SMS code', async () => {
    const wrong = await post('/api/protection/excluded/account', { ...proof, password: 'not-it-1' })
    expect(wrong.msg).toBe('登录密码错误，还可尝试 4 次')
    await post('/api/protection/excluded/sms', proof)
    const bad = await post('/api/protection/excluded/setup', {
      ...proof,
      sms_code: '000000',
      pay_password: '135790',
    })
    expect(bad.code).not.toBe(1)
    expect(
      kit.t.app.emu.db.prepare('SELECT pay_password_hash FROM players WHERE id = ?').pluck().get(playerId),
    ).toBe(null)
    for (let i = 2; i <= 6; i++)
      await post('/api/protection/excluded/account', { ...proof, password: `not-it-${i}` })
    const locked = await post('/api/protection/excluded/sms', proof)
    expect(locked.msg).toBe('登录密码错误次数过多，请 30分钟后再试')
  })

  it('is refused to a player who is not excluded', async () => {
    kit.t.clock.freeze(T0 + 8 * 86_400_000)
    const res = await post('/api/protection/excluded/account', proof)
    expect(res.msg).toBe('当前未处于暂停游戏或自我排除期，请登录后提现')
  })
})
