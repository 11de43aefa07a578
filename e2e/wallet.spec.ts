import type { Page } from '@playwright/test'
import { getBalance, updatePaymentPassword } from '@shared/contract/account'
import { currentRound, placeBets } from '@shared/contract/games'
import {
  bindWallet,
  exchange,
  fundFlow,
  getPayInfoUsdt,
  getWithdrawalHistory,
  usdtPay,
} from '@shared/contract/wallet'
import { approveWithdrawal, confirmDeposit } from '@shared/emu-contract/wallet'
import { isTronAddress } from '@shared/tron'
import { api } from './support/api'
import { emu, login, registerPlayer } from './support/emu'
import { expect, openLoggedIn, test, toast, typeOnKeyboard } from './support/test'

/**
 * The wallet pages against the emulator: each test makes its own player through the API (SMS,
 * register, login), so balances and locks are its own. The chain and the back office are the
 * tester's controls under /__emu.
 */

/** A real TRC20 address (checked below with shared/tron.ts), bound as a withdrawal address. */
const ADDRESS = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7'
const SPARE_ADDRESS = 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW'
const PAY_PASSWORD = '246810'

interface Player {
  phone: string
  password: string
  token: string
  playerId: number
}

/** A new player, optionally with a payment password, a confirmed top-up and a bound address. */
async function newPlayer(
  setup: { payPassword?: boolean; topUp?: string; bindAddress?: boolean } = {},
): Promise<Player> {
  const who = await registerPlayer('wallet1234')
  const session = await login(who.phone, who.password)
  const player = { ...who, token: session.token, playerId: session.player_id }
  if (setup.payPassword || setup.bindAddress) {
    await api(updatePaymentPassword, {
      token: player.token,
      body: { pay_password: PAY_PASSWORD, login_password: player.password },
    })
  }
  if (setup.topUp) {
    const order = await api(usdtPay, { token: player.token, body: { amount: setup.topUp } })
    await emu().control(confirmDeposit, { params: { id: order.order_no } })
  }
  if (setup.bindAddress) {
    await api(bindWallet, {
      token: player.token,
      body: { address: ADDRESS, label: '我的钱包', pay_password: PAY_PASSWORD },
    })
  }
  return player
}

const balanceOf = (player: Player) =>
  api(getBalance, { token: player.token, query: { player_id: player.playerId } })

/** The payment-password sheet: waits for it, then types the six digits. */
async function enterPayPassword(page: Page, digits: string) {
  await expect(page.getByRole('button', { name: '支付密码', exact: true })).toBeVisible()
  await typeOnKeyboard(page, digits)
}

test('the sample withdrawal addresses are valid TRON addresses', () => {
  expect(isTronAddress(ADDRESS)).toBe(true)
  expect(isTronAddress(SPARE_ADDRESS)).toBe(true)
})

test('top-up: an order confirmed through /__emu updates itself, raises the balance and shows in the fund flow', async ({
  page,
  pageErrors,
}) => {
  const player = await newPlayer()
  const info = await api(getPayInfoUsdt, { token: player.token })
  await openLoggedIn(page, '/hometopup', player)

  await expect(page.getByTestId('deposit-address')).toHaveText(info.address)
  expect(isTronAddress(info.address)).toBe(true)
  await expect(page.getByRole('img', { name: '充值地址二维码' })).toBeVisible()
  await page.getByRole('button', { name: '复制地址' }).click()
  await expect(toast(page, '复制成功')).toBeVisible()
  await expect(page.getByRole('note')).toContainText('仅支持 TRC20 网络的 USDT')
  await expect(page.getByText(`${info.min_amount} USDT`, { exact: true })).toBeVisible()
  await expect(page.getByTestId('wallet-balance')).toHaveText('0.00USDT')

  const amount = page.getByRole('textbox', { name: '充值金额' })
  await amount.fill('5')
  await page.getByRole('button', { name: '提交充值订单' }).click()
  await expect(page.getByRole('alert')).toHaveText(`最低充值 ${info.min_amount} USDT`)

  await amount.fill('123.45')
  await page.getByRole('button', { name: '提交充值订单' }).click()
  const order = page.getByTestId('deposit-order')
  await expect(order.locator('.wallet-status')).toHaveText('确认中')
  const orderNo = (await page.getByTestId('deposit-order-no').textContent()) ?? ''
  expect(orderNo).toMatch(/^D\d+/)

  await emu().control(confirmDeposit, { params: { id: orderNo } })
  // The page asks for the order again by itself.
  await expect(order.locator('.wallet-status')).toHaveText('已到账', { timeout: 10_000 })
  // A first top-up earns the 10% first-deposit bonus, shown to the last micro-USDT.
  await expect(page.getByTestId('wallet-balance')).toHaveText('135.795USDT')
  expect((await balanceOf(player)).balance).toBe('135.795')

  await page.goto('/finance')
  const rows = page.getByTestId('fund-flow-row').filter({ hasText: orderNo })
  await expect(rows).toHaveCount(2)
  const row = rows.and(page.locator('[data-type="topup"]'))
  await expect(row).toContainText('充值')
  await expect(row).toContainText('+123.45USDT')
  await expect(row).toContainText('余额 123.45USDT')
  const bonus = rows.and(page.locator('[data-type="deposit_bonus"]'))
  await expect(bonus).toContainText('首充赠送')
  await expect(bonus).toContainText('+12.345USDT')
  await expect(bonus).toContainText('余额 135.795USDT')

  await page.goto('/tophistory')
  const record = page.locator(`[data-testid="deposit-record"][data-order-no="${orderNo}"]`)
  await expect(record.locator('.wallet-status')).toHaveText('已到账')
  expect(pageErrors).toEqual([])
})

test('bind an address, withdraw to it, approve through /__emu: both rows in the fund flow and the history', async ({
  page,
  pageErrors,
}) => {
  // A long walk through several pages: more time on a busy machine.
  test.slow()
  const player = await newPlayer({ payPassword: true, topUp: '100' })
  await openLoggedIn(page, '/cash', player)

  // No address yet: the page leads to binding one, and comes back.
  await page.getByRole('link', { name: '去绑定地址' }).click()
  await expect(page).toHaveURL(/\/address\?from=%2Fcash$/)
  await expect(page.getByTestId('address-count')).toHaveText('已绑定 0/5')
  await page.getByRole('textbox', { name: '提现地址' }).fill(`${ADDRESS.slice(0, -1)}8`)
  await page.getByRole('button', { name: '绑定地址' }).click()
  await expect(page.getByRole('alert')).toHaveText('地址校验失败，请检查是否输入有误')
  await page.getByRole('textbox', { name: '提现地址' }).fill(ADDRESS)
  await page.getByRole('textbox', { name: '地址备注' }).fill('冷钱包')
  await page.getByRole('button', { name: '绑定地址' }).click()
  await page.locator('.adm-dialog').getByRole('button', { name: '确认绑定' }).click()
  await enterPayPassword(page, PAY_PASSWORD)
  await expect(page).toHaveURL(/\/cash$/)
  await expect(page.getByTestId('withdraw-address-label')).toContainText('冷钱包')

  // The fee is on top of the amount; what arrives and what leaves are exact.
  const amount = page.getByRole('textbox', { name: '提现金额' })
  await page.getByRole('button', { name: '全部', exact: true }).click()
  // 100 topped up and 10 of first-deposit bonus; the fee comes on top.
  await expect(amount).toHaveValue('109.00')
  await expect(page.getByTestId('withdraw-total')).toHaveText('110.00 USDT')
  await amount.fill('50.1')
  await expect(page.getByTestId('withdraw-fee')).toHaveText('1.00 USDT')
  await expect(page.getByTestId('withdraw-arrive')).toHaveText('50.10 USDT')
  await expect(page.getByTestId('withdraw-total')).toHaveText('51.10 USDT')
  await page.getByRole('button', { name: '提现', exact: true }).click()
  await enterPayPassword(page, PAY_PASSWORD)

  const result = page.getByTestId('withdraw-result')
  await expect(result.locator('.wallet-status')).toHaveText('审核中')
  const orderNo = (await page.getByTestId('withdraw-order-no').textContent()) ?? ''
  expect(orderNo).not.toBe('')
  await expect(page.getByTestId('wallet-balance')).toHaveText('58.90USDT')

  await emu().control(approveWithdrawal, { params: { id: orderNo } })

  await page.goto('/tophistory?tab=withdraw')
  const record = page.locator(`[data-testid="withdrawal-record"][data-order-no="${orderNo}"]`)
  await expect(record.locator('.wallet-status')).toHaveText('已到账')
  await expect(record).toContainText('50.10USDT')
  await expect(record).toContainText('冷钱包')

  await page.goto('/finance')
  const rows = page.getByTestId('fund-flow-row').filter({ hasText: orderNo })
  await expect(rows).toHaveCount(2)
  await expect(rows.filter({ hasText: '提现手续费' })).toContainText('-1.00USDT')
  await expect(page.locator('[data-testid="fund-flow-row"][data-type="withdrawal"]')).toContainText(
    '-50.10USDT',
  )
  expect((await balanceOf(player)).balance).toBe('58.90')
  expect(pageErrors).toEqual([])
})

test('a wrong payment password shows the error and moves nothing', async ({ page, pageErrors }) => {
  const player = await newPlayer({ topUp: '100', bindAddress: true })
  await openLoggedIn(page, '/cash', player)
  await expect(page.getByTestId('withdraw-address-label')).toContainText('我的钱包')
  await page.getByRole('textbox', { name: '提现金额' }).fill('20')
  await page.getByRole('button', { name: '提现', exact: true }).click()
  await enterPayPassword(page, '135790')

  const sheet = page.locator('.wallet-sheet')
  await expect(sheet.getByRole('alert')).toHaveText('支付密码错误，还可尝试 2 次')
  await expect(page.getByTestId('withdraw-result')).toHaveCount(0)
  await sheet.getByRole('button', { name: '取消' }).click()
  await expect(page.getByTestId('wallet-balance')).toHaveText('110.00USDT')

  expect((await balanceOf(player)).balance).toBe('110.00')
  const history = await api(getWithdrawalHistory, { token: player.token })
  expect(history.total).toBe(0)
  const flow = await api(fundFlow, { token: player.token })
  expect(flow.list.map((row) => row.type)).toEqual(['deposit_bonus', 'topup'])
  expect(pageErrors).toEqual([])
})

test('three wrong payment passwords lock withdrawals, and the page says until when', async ({ page }) => {
  // A long walk through several pages: more time on a busy machine.
  test.slow()
  const player = await newPlayer({ topUp: '100', bindAddress: true })
  await openLoggedIn(page, '/cash', player)
  await page.getByRole('textbox', { name: '提现金额' }).fill('20')
  await page.getByRole('button', { name: '提现', exact: true }).click()
  const sheet = page.locator('.wallet-sheet')
  await enterPayPassword(page, '111111')
  await expect(sheet.getByRole('alert')).toHaveText('支付密码错误，还可尝试 2 次')
  await typeOnKeyboard(page, '222222')
  await expect(sheet.getByRole('alert')).toHaveText('支付密码错误，还可尝试 1 次')
  await typeOnKeyboard(page, '333333')

  await expect(page.getByRole('alert').filter({ hasText: '提现已锁定' }).first()).toBeVisible()
  await expect(page.getByText(/请于 \d{2}-\d{2}\s\d{2}:\d{2}（北京时间）后再试/)).toBeVisible()
  await expect(page.getByRole('button', { name: '提现', exact: true })).toBeDisabled()
  expect((await balanceOf(player)).balance).toBe('110.00')
})

test('addresses: set default and delete, each confirmed; the count shows the limit', async ({ page }) => {
  const player = await newPlayer({ bindAddress: true })
  await api(bindWallet, {
    token: player.token,
    body: { address: SPARE_ADDRESS, label: '备用', pay_password: PAY_PASSWORD },
  })
  await openLoggedIn(page, '/address', player)
  await expect(page.getByTestId('address-count')).toHaveText('已绑定 2/5')
  const items = page.getByTestId('address-item')
  const defaultMark = (item: ReturnType<typeof items.first>) => item.getByText('默认', { exact: true })
  await expect(items.first()).toContainText('我的钱包')
  await expect(defaultMark(items.first())).toBeVisible()

  const spare = items.filter({ hasText: '备用' })
  await spare.getByRole('button', { name: '设为默认' }).click()
  await page.locator('.adm-dialog').getByRole('button', { name: '取消' }).click()
  await expect(defaultMark(spare)).toHaveCount(0)
  await spare.getByRole('button', { name: '设为默认' }).click()
  await page.locator('.adm-dialog').getByRole('button', { name: '设为默认' }).click()
  await expect(items.first()).toContainText('备用')
  await expect(defaultMark(items.first())).toBeVisible()

  await items.filter({ hasText: '我的钱包' }).getByRole('button', { name: '删除' }).click()
  await page.locator('.adm-dialog').getByRole('button', { name: '删除' }).click()
  await expect(items).toHaveCount(1)
  await expect(page.getByTestId('address-count')).toHaveText('已绑定 1/5')
})

test('exchange: the live quote follows the amount and the pair; confirming moves both balances', async ({
  page,
  pageErrors,
}) => {
  const player = await newPlayer({ topUp: '100' })
  await openLoggedIn(page, '/exchange', player)
  await expect(page.getByText('1 USDT = 6.25 TRX')).toBeVisible()
  const amount = page.getByRole('textbox', { name: '兑换数量（USDT）' })
  await amount.fill('10.5')
  await expect(page.getByTestId('exchange-quote')).toHaveText('65.625TRX')
  await page.getByRole('button', { name: '兑换', exact: true }).click()
  await page.locator('.adm-dialog').getByRole('button', { name: '确认兑换' }).click()
  // 100 topped up, 10 of first-deposit bonus, 10.5 exchanged.
  await expect(page.getByTestId('exchange-usdt')).toHaveText('99.50USDT')
  await expect(page.getByTestId('exchange-trx')).toHaveText('65.625TRX')

  await page.getByRole('button', { name: '交换兑换方向' }).click()
  await expect(page.getByText('1 TRX = 0.158 USDT')).toBeVisible()
  await page.getByRole('textbox', { name: '兑换数量（TRX）' }).fill('5')
  await expect(page.getByRole('alert')).toHaveText('单笔最少兑换 10.00 TRX')

  await page.goto('/finance?type=exchange')
  await expect(page.getByTestId('fund-flow-row')).toHaveCount(2)
  await expect(page.getByTestId('fund-flow-row').filter({ hasText: '+65.625TRX' })).toHaveCount(1)
  await expect(page.getByTestId('fund-flow-row').filter({ hasText: '-10.50USDT' })).toHaveCount(1)
  expect(pageErrors).toEqual([])
})

test('hide-amount masks the balance and every amount in the lists', async ({ page }) => {
  const player = await newPlayer({ topUp: '42' })
  await openLoggedIn(page, '/finance', player)
  const row = page.getByTestId('fund-flow-row').and(page.locator('[data-type="topup"]'))
  await expect(row).toContainText('+42.00USDT')
  await page.evaluate(() => localStorage.setItem('hideAmount', '1'))
  await page.goto('/hometopup')
  await expect(page.getByTestId('wallet-balance')).toHaveText('****USDT')
  await page.goto('/finance')
  await expect(row.locator('.wallet-amount')).toHaveText(['****USDT', '****USDT'])
})

test('fund flow: more rows load as the player scrolls; the type and date filters narrow the list', async ({
  page,
  pageErrors,
}) => {
  // A long walk through several pages: more time on a busy machine.
  test.slow()
  const player = await newPlayer()
  for (let i = 1; i <= 23; i++) {
    const order = await api(usdtPay, { token: player.token, body: { amount: `${10 + i}` } })
    await emu().control(confirmDeposit, { params: { id: order.order_no } })
  }
  await openLoggedIn(page, '/finance', player)
  const rows = page.getByTestId('fund-flow-row')
  await expect(rows.first()).toContainText('+33.00USDT')
  await expect(rows).toHaveCount(20)
  await rows.last().scrollIntoViewIfNeeded()
  await page.mouse.wheel(0, 2000)
  // 23 top-ups and the first one's bonus.
  await expect(rows).toHaveCount(24)
  await expect(page.getByText('没有更多了')).toBeVisible()

  await page.getByText('全部类型').click()
  await page.locator('.adm-dropdown-popup').getByText('提现', { exact: true }).click()
  await expect(page.getByText('暂无资金记录')).toBeVisible()
  await page.getByText('提现', { exact: true }).first().click()
  await page.locator('.adm-dropdown-popup').getByText('充值', { exact: true }).click()
  await expect(rows).toHaveCount(20)

  await page.getByText('全部时间').click()
  await page.locator('.adm-dropdown-popup').getByText('今天', { exact: true }).click()
  await expect(rows.first()).toContainText('+33.00USDT')
  expect(pageErrors).toEqual([])
})

test('after an exchange every page shows the exact balance, and 全部 moves all of it', async ({
  page,
  pageErrors,
}) => {
  test.slow()
  const player = await newPlayer({ topUp: '100' })
  // 110 USDT; 10 → 62.5 TRX; 62.5 TRX × 0.158 → 9.875 USDT: 109.875 USDT, 0 TRX.
  await api(exchange, { token: player.token, body: { from: 'USDT', to: 'TRX', amount: '10' } })
  await openLoggedIn(page, '/exchange', player)
  await page.getByRole('button', { name: '交换兑换方向' }).click()
  await page.getByRole('button', { name: '全部', exact: true }).click()
  await expect(page.getByRole('textbox', { name: '兑换数量（TRX）' })).toHaveValue('62.50')
  await expect(page.getByTestId('exchange-quote')).toHaveText('9.875USDT')
  await page.getByRole('button', { name: '兑换', exact: true }).click()
  await page.locator('.adm-dialog').getByRole('button', { name: '确认兑换' }).click()
  await expect(page.getByTestId('exchange-usdt')).toHaveText('109.875USDT')
  await expect(page.getByTestId('exchange-trx')).toHaveText('0.00TRX')
  expect((await balanceOf(player)).balance).toBe('109.875')

  await page.goto('/home')
  await expect(page.getByTestId('balance')).toHaveText('109.875USDT')
  await page.goto('/mine')
  await expect(page.getByTestId('balance')).toHaveText('109.875USDT')
  await page.goto('/cash')
  await expect(page.getByTestId('wallet-balance')).toHaveText('109.875USDT')
  await expect(page.getByTestId('withdraw-max')).toHaveText('108.875USDT')

  // 全部 on the way back moves the whole balance, the last 0.005 included.
  await page.goto('/exchange')
  await page.getByRole('button', { name: '全部', exact: true }).click()
  await expect(page.getByRole('textbox', { name: '兑换数量（USDT）' })).toHaveValue('109.875')
  await page.getByRole('button', { name: '兑换', exact: true }).click()
  await page.locator('.adm-dialog').getByRole('button', { name: '确认兑换' }).click()
  await expect(page.getByTestId('exchange-usdt')).toHaveText('0.00USDT')
  await expect(page.getByTestId('exchange-trx')).toHaveText('686.71875TRX')
  expect(pageErrors).toEqual([])
})

test.describe('on a phone set to another time zone', () => {
  test.use({ timezoneId: 'America/New_York' })

  test('fund-flow rows say what happened in Chinese, with times in 北京时间', async ({ page }) => {
    const player = await newPlayer({ topUp: '100' })
    const round = await api(currentRound, { query: { game: 'hassize' } })
    const roundId = round.ms_to_seal < 5_000 ? round.next.round_id : round.round_id
    await api(placeBets, {
      token: player.token,
      body: { game: 'hassize', round_id: roundId, bets: [{ bet_type: 'big', amount: '2' }] },
    })
    const flow = await api(fundFlow, { token: player.token, query: { type: 'bet' } })
    const betAt = flow.list[0]?.created_at ?? 0
    // The same instant written in UTC+8, as the page must show it whatever the browser's zone.
    const cst = new Date(betAt + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ')

    await openLoggedIn(page, '/finance', player)
    await expect(page.getByTestId('time-zone-note')).toHaveText('时间均为北京时间（UTC+8）')
    const bet = page.locator('[data-testid="fund-flow-row"][data-type="bet"]')
    await expect(bet).toContainText('投注')
    await expect(bet).toContainText(`第${roundId}期`)
    await expect(bet).toContainText(/注单号 \d+/)
    await expect(bet).toContainText(cst)
    await expect(
      page.getByTestId('fund-flow-row').filter({ hasText: /\b(bet|round|transfer):/ }),
    ).toHaveCount(0)
  })
})

test('setting the payment password from 提现 brings the player back to 提现', async ({ page }) => {
  const player = await newPlayer({ topUp: '20' })
  await openLoggedIn(page, '/cash', player)
  await page.getByRole('link', { name: '去设置' }).click()
  await expect(page).toHaveURL(/\/paypdchange\?from=%2Fcash$/)
  await page.getByPlaceholder('请输入登录密码').fill(player.password)
  await page.getByRole('button', { name: '支付密码', exact: true }).click()
  await typeOnKeyboard(page, PAY_PASSWORD)
  await page.getByRole('button', { name: '确认支付密码', exact: true }).click()
  await typeOnKeyboard(page, PAY_PASSWORD)
  await page.getByRole('button', { name: '确认', exact: true }).click()
  await expect(page).toHaveURL(/\/cash$/)
  await expect(page.getByRole('link', { name: '去设置' })).toHaveCount(0)
})

test('an address already bound is refused before the payment password is asked', async ({ page }) => {
  const player = await newPlayer({ bindAddress: true })
  await openLoggedIn(page, '/address', player)
  await expect(page.getByTestId('address-count')).toHaveText('已绑定 1/5')
  await page.getByRole('textbox', { name: '提现地址' }).fill(ADDRESS)
  await page.getByRole('textbox', { name: '地址备注' }).fill('再绑一次')
  await page.getByRole('button', { name: '绑定地址' }).click()
  await expect(page.getByRole('alert')).toHaveText('该地址已绑定')
  await expect(page.locator('.adm-dialog')).toHaveCount(0)
  await expect(page.getByRole('button', { name: '支付密码', exact: true })).toHaveCount(0)
})
