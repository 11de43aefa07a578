import { parseAnswer } from '@server/test-support/answers'
import { createTestApp, DEMO, type TestApp } from '@server/test-support/test-app'
import { getBalance } from '@shared/contract/account'
import type { Endpoint } from '@shared/contract/endpoint'
import {
  bindWallet,
  changeType,
  deleteWallet,
  exchange,
  fundFlow,
  getDepositHistory,
  getDepositOrder,
  getPayInfoUsdt,
  getWithdrawalHistory,
  getWithdrawConfig,
  listWallets,
  setDefaultWallet,
  usdtPay,
  withdraw,
} from '@shared/contract/wallet'
import { type ControlEndpoint, controlPath } from '@shared/emu-contract/control-endpoint'
import {
  approveWithdrawal,
  confirmDeposit,
  listWithdrawals,
  rejectWithdrawal,
} from '@shared/emu-contract/wallet'
import { CODE } from '@shared/envelope'
import { isTronAddress } from '@shared/tron'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

let t: TestApp
let token: string
let playerId: number

beforeEach(async () => {
  t = await createTestApp()
  ;({ token, playerId } = await t.login())
})
afterEach(async () => {
  await t.close()
})

const ADDR_A = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'
const ADDR_B = 'TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8'
const MORE = [
  'TNUC9Qb1rRpS5CbWLmNMxXBjyFoydXjWFR',
  'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7',
  'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb',
]
const JST = 'TCFLL5dx5ZJdKnWuesXxi1VPwjLVmWZZy9'

async function get<E extends Endpoint>(e: E, query: Record<string, string | number> = {}, tok = token) {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString()
  const res = await t.app.inject({ url: qs ? `${e.path}?${qs}` : e.path, headers: { token: tok } })
  return parseAnswer<E['data']>(e, res.json())
}

async function post<E extends Endpoint>(
  e: E,
  fields: Record<string, string>,
  extra: Record<string, string> = {},
  tok = token,
) {
  const res = await t.app.inject({
    method: 'POST',
    url: e.path,
    payload: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', token: tok, ...extra },
  })
  return parseAnswer<E['data']>(e, res.json())
}

/** A tester's call, its answer parsed with its control contract. */
async function emu<E extends ControlEndpoint>(
  e: E,
  params: Record<string, string | number>,
  body?: Record<string, unknown>,
) {
  const url = controlPath(e, params)
  const res = await t.app.inject({ method: e.method, url, ...(body ? { payload: body } : {}) })
  return parseAnswer<E['data']>(e, res.json())
}

const balance = async () => {
  const res = await t.app.inject({ url: `/api/api/getBalance?player_id=${playerId}`, headers: { token } })
  return parseAnswer(getBalance, res.json()).data
}
const drift = () => t.app.emu.ledger.drift()

const bind = (address = ADDR_A, label = '主钱包', pay: string = DEMO.payPassword) =>
  post(bindWallet, { address, label, pay_password: pay })

async function boundWalletId(address = ADDR_A): Promise<number> {
  const res = await bind(address)
  const row = res.data.list.find((w) => w.address === address)
  if (!row) throw new Error(`bind failed: ${res.msg}`)
  return row.id
}

const withdrawNow = (
  walletId: number,
  amount: string,
  pay: string = DEMO.payPassword,
  extra: Record<string, string> = {},
) => post(withdraw, { wallet_id: String(walletId), amount, pay_password: pay }, extra)

describe('top-up', () => {
  it('gives each player a valid, stable, unique TRON deposit address', async () => {
    const a = await get(getPayInfoUsdt)
    expect(a.code).toBe(1)
    expect(a.data).toMatchObject({
      network: 'TRC20',
      currency: 'USDT',
      min_amount: '10.00',
      confirmations: 20,
    })
    expect(isTronAddress(a.data.address)).toBe(true)
    expect(a.data.qr_text).toBe(a.data.address)
    expect((await get(getPayInfoUsdt)).data.address).toBe(a.data.address)
    const friend = await t.login('13900139000', 'friend1234')
    const b = await get(getPayInfoUsdt, {}, friend.token)
    expect(isTronAddress(b.data.address)).toBe(true)
    expect(b.data.address).not.toBe(a.data.address)
  })

  it('confirms after the chain delay on the emulator clock, and credits once', async () => {
    const order = await post(usdtPay, { amount: '25.5' })
    expect(order).toMatchObject({ code: 1, data: { status: 'pending', amount: '25.50', confirmations: 0 } })
    t.clock.advance(30_000)
    const half = await get(getDepositOrder, { id: order.data.id })
    expect(half.data).toMatchObject({ status: 'pending', confirmations: 10 })
    expect((await balance()).balance).toBe('1000.00')
    t.clock.advance(30_000)
    const done = await get(getDepositOrder, { id: order.data.id })
    expect(done.data).toMatchObject({ status: 'confirmed', status_label: '已到账', confirmations: 20 })
    expect(done.data.tx_hash).toMatch(/^[0-9a-f]{64}$/)
    // 25.50 and the first-deposit bonus of 10% (2.55), paid with it.
    expect((await balance()).balance).toBe('1028.05')
    const again = await emu(confirmDeposit, { id: order.data.id })
    expect(again.data.credited).toBe(false)
    expect((await balance()).balance).toBe('1028.05')
    const flow = await get(fundFlow, { type: 'topup' })
    expect(flow.data.list).toHaveLength(1)
    expect(flow.data.list[0]).toMatchObject({
      type: 'topup',
      type_label: '充值',
      amount: '25.50',
      balance_after: '1025.50',
      ref: order.data.order_no,
    })
    expect(drift()).toEqual([])
  })

  it('confirms at once through /__emu, by id or order number; history newest first', async () => {
    const a = await post(usdtPay, { amount: '10' })
    const b = await post(usdtPay, { amount: '20' })
    const byId = await emu(confirmDeposit, { id: a.data.id })
    expect(byId.data).toMatchObject({ credited: true, order: { status: 'confirmed' } })
    const byNo = await emu(confirmDeposit, { id: b.data.order_no })
    expect(byNo.data.credited).toBe(true)
    // 10 + 20, and 10% of the first one (1.00) as the first-deposit bonus.
    expect((await balance()).balance).toBe('1031.00')
    const hist = await get(getDepositHistory)
    expect(hist.data.list.map((o) => o.amount)).toEqual(['20.00', '10.00'])
    expect(hist.data).toMatchObject({ total: 2, page: 1, has_more: false })
    expect((await emu(confirmDeposit, { id: 999999 })).code).toBe(CODE.notFound)
    const friend = await t.login('13900139000', 'friend1234')
    expect((await get(getDepositOrder, { id: a.data.id }, friend.token)).code).toBe(CODE.notFound)
  })

  it('refuses amounts outside the limits and too many open orders', async () => {
    expect((await post(usdtPay, { amount: '9.99' })).msg).toBe('金额不能低于 10.00 USDT')
    expect((await post(usdtPay, { amount: '0' })).code).toBe(CODE.invalidInput)
    expect((await post(usdtPay, { amount: '1.1234567' })).code).toBe(CODE.invalidInput)
    for (let i = 0; i < 5; i++) expect((await post(usdtPay, { amount: '10' })).code).toBe(1)
    expect((await post(usdtPay, { amount: '10' })).msg).toBe('未完成的充值订单过多，请等待到账后再试')
  })
})

describe('withdrawal addresses', () => {
  it('binds with a label and the payment password, sets the default, deletes; max 5, no duplicates', async () => {
    const first = await bind(ADDR_A, '主钱包')
    expect(first.code).toBe(1)
    expect(first.data).toMatchObject({
      max_count: 5,
      list: [{ address: ADDR_A, label: '主钱包', is_default: true }],
    })
    expect((await bind(ADDR_A, '再来')).msg).toBe('该地址已绑定')
    const second = await bind(ADDR_B, '备用')
    expect(second.data.list.map((w) => w.is_default)).toEqual([true, false])
    const idB = second.data.list[1]?.id ?? 0
    const set = await post(setDefaultWallet, { id: String(idB) })
    expect(set.data.list[0]).toMatchObject({ id: idB, is_default: true })
    const del = await post(deleteWallet, { id: String(idB) })
    expect(del.data.list).toEqual([expect.objectContaining({ address: ADDR_A, is_default: true })])
    expect((await post(deleteWallet, { id: String(idB) })).code).toBe(CODE.notFound)

    for (const a of [...MORE, ADDR_B]) expect((await bind(a, 'x')).code).toBe(1)
    expect((await bind(JST, 'six')).msg).toBe('最多绑定 5 个地址')
    expect((await get(listWallets)).data.list).toHaveLength(5)
  })

  it('refuses a bad address with the reason, a missing label, and a wrong payment password', async () => {
    const bad = await bind('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6T')
    expect(bad.code).toBe(CODE.invalidInput)
    expect(bad.msg).toMatch(/address 地址校验失败/)
    expect((await bind('0x52908400098527886E0F7030069857D2E4169EE7')).msg).toMatch(/address 地址长度应为34位/)
    expect((await bind(ADDR_A, '  ')).msg).toMatch(/label 请填写地址备注/)
    const wrong = await bind(ADDR_A, '主钱包', '000000')
    expect(wrong.msg).toBe('支付密码错误，还可尝试 2 次')
    expect((await get(listWallets)).data.list).toEqual([])
  })

  it("doesn't let one player touch another's addresses", async () => {
    const mine = await bind()
    const friend = await t.login('13900139000', 'friend1234')
    const res = await post(deleteWallet, { id: String(mine.data.list[0]?.id) }, {}, friend.token)
    expect(res.code).toBe(CODE.notFound)
    expect((await get(listWallets)).data.list).toHaveLength(1)
  })
})

describe('withdrawal', () => {
  it('holds amount + fee at request, approval completes it, and both rows show in the fund flow and history', async () => {
    const walletId = await boundWalletId()
    const cfg = await get(getWithdrawConfig)
    expect(cfg.data).toMatchObject({
      min_amount: '10.00',
      fee: '1.00',
      daily_limit: '100000.00',
      used_today: '0.00',
      balance: '1000.00',
      max_withdrawable: '999.00',
      has_pay_password: true,
      locked_until: null,
      pay_password_attempts_left: 3,
    })
    const res = await withdrawNow(walletId, '100')
    expect(res.code).toBe(1)
    expect(res.data.balance).toBe('899.00')
    expect(res.data.order).toMatchObject({
      status: 'pending',
      amount: '100.00',
      fee: '1.00',
      total: '101.00',
      address: ADDR_A,
    })
    const flow = await get(fundFlow)
    expect(flow.data.list.slice(0, 2).map((r) => [r.type, r.amount])).toEqual([
      ['withdrawal_fee', '-1.00'],
      ['withdrawal', '-100.00'],
    ])
    const approved = await emu(approveWithdrawal, { id: res.data.order.id })
    expect(approved.data).toMatchObject({ status: 'approved', status_label: '已到账' })
    expect(approved.data.tx_hash).toMatch(/^[0-9a-f]{64}$/)
    expect((await emu(rejectWithdrawal, { id: res.data.order.id })).msg).toBe('该提现已处理，不能再审核')
    expect((await balance()).balance).toBe('899.00')
    const hist = await get(getWithdrawalHistory)
    expect(hist.data.list).toEqual([expect.objectContaining({ id: res.data.order.id, status: 'approved' })])
    expect((await get(getWithdrawConfig)).data.used_today).toBe('100.00')
    expect(drift()).toEqual([])
  })

  it('rejection gives amount and fee back as a refund', async () => {
    const walletId = await boundWalletId()
    const res = await withdrawNow(walletId, '50.5')
    const rejected = await emu(
      rejectWithdrawal,
      { id: res.data.order.order_no },
      {
        reason: '地址风险',
      },
    )
    expect(rejected.data).toMatchObject({ status: 'rejected', reason: '地址风险' })
    expect((await balance()).balance).toBe('1000.00')
    const refund = (await get(fundFlow, { type: 'refund' })).data.list
    expect(refund).toEqual([expect.objectContaining({ amount: '51.50', ref: res.data.order.order_no })])
    expect((await get(getWithdrawConfig)).data.used_today).toBe('0.00')
    expect((await get(getWithdrawalHistory, { status: 'rejected' })).data.total).toBe(1)
    expect(drift()).toEqual([])
  })

  it('approves automatically after the configured delay on the emulator clock', async () => {
    const walletId = await boundWalletId()
    const res = await withdrawNow(walletId, '20')
    t.clock.advance(299_000)
    expect((await get(getWithdrawalHistory)).data.list[0]?.status).toBe('pending')
    t.clock.advance(1_000)
    expect((await get(getWithdrawalHistory)).data.list[0]).toMatchObject({
      id: res.data.order.id,
      status: 'approved',
    })
  })

  it('can be set to reject automatically instead, and lists what is pending for testers', async () => {
    const walletId = await boundWalletId()
    await t.app.inject({
      method: 'PUT',
      url: '/__emu/wallet/settings',
      payload: { withdrawal: { auto_review_action: 'reject', auto_review_after_seconds: 10 } },
    })
    const res = await withdrawNow(walletId, '20')
    const pending = await t.app.inject({ url: '/__emu/withdrawals?status=pending' })
    expect(parseAnswer(listWithdrawals, pending.json()).data.list.map((w) => w.id)).toEqual([
      res.data.order.id,
    ])
    t.clock.advance(10_000)
    const [row] = (await get(getWithdrawalHistory)).data.list
    expect(row).toMatchObject({ status: 'rejected', status_label: '已退回', reason: '风控审核未通过' })
    expect((await balance()).balance).toBe('1000.00')
    // A reset reads fixtures/wallet.json again.
    const reset = await t.app.inject({ method: 'POST', url: '/__emu/reset', payload: { scope: '*' } })
    expect(reset.json()).toMatchObject({ code: 1 })
    const settings = await t.app.inject({ url: '/__emu/wallet/settings' })
    expect(settings.json().data.withdrawal).toMatchObject({
      auto_review_action: 'approve',
      auto_review_after_seconds: 300,
    })
  })

  it('refuses unbound addresses, amounts out of range, more than the balance and the daily limit, moving nothing', async () => {
    const walletId = await boundWalletId()
    const before = t.app.emu.db.prepare('SELECT COUNT(*) FROM ledger').pluck().get()
    expect((await withdrawNow(walletId + 100, '20')).msg).toBe('提现地址不存在，请先绑定')
    expect((await withdrawNow(walletId, '9.99')).msg).toBe('金额不能低于 10.00 USDT')
    expect((await withdrawNow(walletId, '1000')).msg).toBe('余额不足')
    expect((await withdrawNow(walletId, '50001')).msg).toBe('金额不能超过 50000.00 USDT')
    const patched = await t.app.inject({
      method: 'PUT',
      url: '/__emu/wallet/settings',
      payload: { withdrawal: { daily_limit: '150' } },
    })
    expect(patched.json().code).toBe(1)
    expect((await withdrawNow(walletId, '100')).code).toBe(1)
    expect((await withdrawNow(walletId, '60')).msg).toBe('超出今日提现额度，今日剩余 50.00 USDT')
    const friend = await t.login('13900139000', 'friend1234')
    const theirs = (await get(listWallets, {}, friend.token)).data.list[0]?.id ?? 0
    expect((await withdrawNow(theirs, '20')).msg).toBe('提现地址不存在，请先绑定')
    expect(t.app.emu.db.prepare('SELECT COUNT(*) FROM ledger').pluck().get()).toBe(Number(before) + 2)
  })

  it('locks after 3 wrong payment passwords for 3 hours, refusing even the right one', async () => {
    const walletId = await boundWalletId()
    expect((await withdrawNow(walletId, '20', '111111')).msg).toBe('支付密码错误，还可尝试 2 次')
    expect((await withdrawNow(walletId, '20', '111111')).msg).toBe('支付密码错误，还可尝试 1 次')
    expect((await withdrawNow(walletId, '20', '111111')).msg).toBe('支付密码错误次数过多，提现已锁定 3小时')
    expect((await withdrawNow(walletId, '20')).msg).toBe('支付密码错误次数过多，请 3小时后再试')
    const cfg = (await get(getWithdrawConfig)).data
    expect(cfg.locked_until).toBeGreaterThan(t.clock.now())
    expect(cfg.pay_password_attempts_left).toBe(0)
    expect((await bind(ADDR_B)).msg).toMatch(/支付密码错误次数过多/)
    t.clock.advance(2 * 3_600_000 + 30 * 60_000)
    expect((await withdrawNow(walletId, '20')).msg).toBe('支付密码错误次数过多，请 30分钟后再试')
    expect((await balance()).balance).toBe('1000.00')
    t.clock.advance(30 * 60_000)
    expect((await withdrawNow(walletId, '20')).code).toBe(1)
    expect((await get(getWithdrawConfig)).data.pay_password_attempts_left).toBe(3)
  })

  it('asks for a payment password to be set first', async () => {
    const walletId = await boundWalletId()
    t.app.emu.db.prepare('UPDATE players SET pay_password_hash = NULL WHERE id = ?').run(playerId)
    expect((await get(getWithdrawConfig)).data.has_pay_password).toBe(false)
    expect((await withdrawNow(walletId, '20')).msg).toBe('请先设置支付密码')
    expect((await balance()).balance).toBe('1000.00')
  })

  it('a right password in between starts the count again', async () => {
    const walletId = await boundWalletId()
    await withdrawNow(walletId, '20', '111111')
    await withdrawNow(walletId, '20', '111111')
    expect((await withdrawNow(walletId, '20')).code).toBe(1)
    expect((await withdrawNow(walletId, '20', '111111')).msg).toBe('支付密码错误，还可尝试 2 次')
  })
})

describe('exchange', () => {
  it('lists the pairs, and converts moving both balances with two rows of one reference', async () => {
    const pairs = await get(changeType)
    expect(pairs.data.pairs).toEqual([
      { from: 'USDT', to: 'TRX', rate: '6.25', min_amount: '1.00', max_amount: '10000.00' },
      { from: 'TRX', to: 'USDT', rate: '0.158', min_amount: '10.00', max_amount: '100000.00' },
    ])
    const a = await post(exchange, { from: 'USDT', to: 'TRX', amount: '10' })
    expect(a.data).toMatchObject({
      amount: '10.00',
      received: '62.50',
      balance: '990.00',
      trx_balance: '562.50',
    })
    const b = await post(exchange, { from: 'TRX', to: 'USDT', amount: '12.345678' })
    // 12.345678 × 0.158 = 1.950617124 → 1.950617, rounded down.
    expect(b.data).toMatchObject({ received: '1.950617', balance: '991.950617', trx_balance: '550.154322' })
    // The balance call shows the same micro-USDT the exchange left, not a figure cut to cents.
    expect(await balance()).toEqual({ balance: '991.950617', trx_balance: '550.154322' })
    const rows = (await get(fundFlow, { type: 'exchange' })).data.list
    expect(rows).toHaveLength(4)
    expect(rows[0]?.ref).toBe(rows[1]?.ref)
    expect(rows.filter((r) => r.currency === 'TRX').map((r) => r.amount)).toEqual(['-12.345678', '62.50'])
    expect(drift()).toEqual([])
  })

  it('refuses unknown pairs, amounts out of range and more than the balance', async () => {
    expect((await post(exchange, { from: 'USDT', to: 'USDT', amount: '10' })).msg).toBe('不支持该兑换')
    expect((await post(exchange, { from: 'USDT', to: 'TRX', amount: '0.5' })).msg).toBe(
      '金额不能低于 1.00 USDT',
    )
    expect((await post(exchange, { from: 'TRX', to: 'USDT', amount: '600' })).msg).toBe('TRX 余额不足')
    expect((await balance()).trx_balance).toBe('500.00')
  })
})

describe('fund flow', () => {
  it('filters by type, currency and CST date, pages newest first', async () => {
    // After the seed's opening rows; a fresh login, as the clock jumps past the session's lifetime.
    t.clock.freeze(Date.UTC(2030, 0, 9, 15, 30)) // 2030-01-09 23:30 CST
    ;({ token } = await t.login())
    for (let i = 0; i < 3; i++) await post(exchange, { from: 'USDT', to: 'TRX', amount: String(i + 1) })
    t.clock.advance(60 * 60_000) // 2030-01-10 00:30 CST
    const order = await post(usdtPay, { amount: '10' })
    await emu(confirmDeposit, { id: order.data.id })

    const all = await get(fundFlow, { page_size: 4 })
    expect(all.data).toMatchObject({ total: 10, page: 1, page_size: 4, has_more: true })
    // The first top-up brings the first-deposit bonus with it, one row later.
    expect(all.data.list.slice(0, 2).map((r) => r.type)).toEqual(['deposit_bonus', 'topup'])
    const ids = all.data.list.map((r) => r.id)
    expect([...ids].sort((x, y) => y - x)).toEqual(ids)
    const last = await get(fundFlow, { page_size: 4, page: 3 })
    expect(last.data.list.map((r) => r.type)).toEqual(['bonus', 'bonus'])
    expect(last.data.has_more).toBe(false)

    expect((await get(fundFlow, { start_date: '2030-01-10', end_date: '2030-01-10' })).data.total).toBe(2)
    const day21 = await get(fundFlow, { start_date: '2030-01-09', end_date: '2030-01-09', currency: 'TRX' })
    expect(day21.data.list.map((r) => r.amount)).toEqual(['18.75', '12.50', '6.25'])
    expect((await get(fundFlow, { type: 'bet' })).data).toMatchObject({ total: 0, list: [] })
    expect((await get(fundFlow, { type: 'nope' })).code).toBe(CODE.invalidInput)
    expect((await get(fundFlow, { start_date: '22-11-2026' })).code).toBe(CODE.invalidInput)
  })
})

describe('idempotency', () => {
  it('a sequential replay returns the first answer and moves money once', async () => {
    const walletId = await boundWalletId()
    const key = { 'idempotency-key': 'withdraw-0001' }
    const first = await withdrawNow(walletId, '100', DEMO.payPassword, key)
    const res = await t.app.inject({
      method: 'POST',
      url: withdraw.path,
      payload: new URLSearchParams({
        amount: '100',
        pay_password: DEMO.payPassword,
        wallet_id: String(walletId),
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', token, ...key },
    })
    expect(res.headers['idempotent-replayed']).toBe('true')
    expect(res.json()).toEqual(first)
    expect((await balance()).balance).toBe('899.00')
    expect((await get(getWithdrawalHistory)).data.total).toBe(1)
    // Without a key, the same request is a new withdrawal.
    expect((await withdrawNow(walletId, '100')).code).toBe(1)
    expect((await balance()).balance).toBe('798.00')
  })

  it('concurrent replays of one key move money once and all get the same answer', async () => {
    const walletId = await boundWalletId()
    const key = { 'idempotency-key': 'withdraw-concurrent' }
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => withdrawNow(walletId, '100', DEMO.payPassword, key)),
    )
    for (const a of answers) expect(a).toEqual(answers[0])
    expect(answers[0]?.code).toBe(1)
    expect((await balance()).balance).toBe('899.00')
    const deposits = await Promise.all(
      Array.from({ length: 6 }, () => post(usdtPay, { amount: '10' }, { 'idempotency-key': 'topup-1' })),
    )
    expect(new Set(deposits.map((d) => d.data.id)).size).toBe(1)
    expect((await get(getDepositHistory)).data.total).toBe(1)
    expect(drift()).toEqual([])
  })

  it('refuses the same key with a different body, and keeps keys per player', async () => {
    const key = { 'idempotency-key': 'ex-1' }
    expect((await post(exchange, { from: 'USDT', to: 'TRX', amount: '10' }, key)).code).toBe(1)
    const other = await post(exchange, { from: 'USDT', to: 'TRX', amount: '11' }, key)
    expect(other).toMatchObject({
      code: CODE.conflict,
      msg: '该 Idempotency-Key 已用于另一个不同的请求，请为新的请求使用新的 Key',
    })
    expect((await post(usdtPay, { amount: '10' }, key)).code).toBe(CODE.conflict)
    expect((await balance()).balance).toBe('990.00')
    const friend = await t.login('13900139000', 'friend1234')
    expect((await post(exchange, { from: 'USDT', to: 'TRX', amount: '11' }, key, friend.token)).code).toBe(1)
    expect(
      (await post(exchange, { from: 'USDT', to: 'TRX', amount: '10' }, { 'idempotency-key': 'bad key' }))
        .code,
    ).toBe(CODE.invalidInput)
  })

  it('replays a refusal instead of running the call again', async () => {
    const walletId = await boundWalletId()
    const key = { 'idempotency-key': 'too-much' }
    const first = await withdrawNow(walletId, '2000', DEMO.payPassword, key)
    expect(first.msg).toBe('余额不足')
    await post(usdtPay, { amount: '5000' }).then((o) => emu(confirmDeposit, { id: o.data.id }))
    expect(await withdrawNow(walletId, '2000', DEMO.payPassword, key)).toEqual(first)
    expect((await get(getWithdrawalHistory)).data.total).toBe(0)
  })
})

describe('the wallet controls under /__emu', () => {
  it('require the admin token when one is configured', async () => {
    const guarded = await createTestApp({ EMU_ADMIN_TOKEN: 'a-long-admin-token-123' })
    try {
      const without = await guarded.app.inject({ method: 'POST', url: '/__emu/deposits/1/confirm' })
      expect(without.statusCode).toBe(401)
      const wrong = await guarded.app.inject({
        method: 'POST',
        url: '/__emu/withdrawals/1/approve',
        headers: { 'x-emu-admin-token': 'not-the-admin-token-00' },
      })
      expect(wrong.statusCode).toBe(403)
      const withToken = await guarded.app.inject({
        url: '/__emu/withdrawals',
        headers: { 'x-emu-admin-token': 'a-long-admin-token-123' },
      })
      expect(withToken.json()).toMatchObject({ code: 1, data: { total: 0 } })
    } finally {
      await guarded.close()
    }
  })
})
