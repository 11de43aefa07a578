import type { Page } from '@playwright/test'
import { IDEMPOTENCY_HEADER } from '@shared/constants'
import { updatePaymentPassword } from '@shared/contract/account'
import { rebateClaim, rebateSummary } from '@shared/contract/content'
import { bindBetAddress, currentRound, placeBets, sendTransferBet } from '@shared/contract/games'
import { bindWallet, exchange, usdtPay, withdraw } from '@shared/contract/wallet'
import { toMicro } from '@shared/money'
import { tronAddressFromAccountId } from '@shared/tron'
import { api } from './support/api'
import { addFault, login, registerPlayer, topUp } from './support/emu'
import { expect, openLoggedIn, recordToasts, test, toastsSeen, typeOnKeyboard } from './support/test'

/**
 * The one rule for submission keys (docs/client.md#submission-keys), page by page: a refused
 * attempt, the same attempt again, a corrected one, and a retry after an answer that never came.
 * Each page must send a new key for each attempt that got an answer, the same key only to retry
 * one that did not, and never show the server's refusal of a reused key.
 */

/** The Idempotency-Key of every POST the page sends to `path`, in order. */
function keysSent(page: Page, path: string): string[] {
  const keys: string[] = []
  page.on('request', (req) => {
    if (req.method() === 'POST' && new URL(req.url()).pathname === path) {
      keys.push(req.headers()[IDEMPOTENCY_HEADER.toLowerCase()] ?? '')
    }
  })
  return keys
}

/** The next call to `path` is refused by the server with this message (a business refusal). */
const refuseOnce = (scope: string, path: string, msg: string) =>
  addFault(scope, { match: { path }, action: { type: 'envelope', code: 50001, msg }, times: 1 })

/** The next call to `path` gets no answer the page can read: the outcome is unknown. */
const loseOnce = (scope: string, path: string) =>
  addFault(scope, { match: { path }, action: { type: 'status', status: 502, body: 'Bad Gateway' }, times: 1 })

const sawToast = (page: Page, text: string) =>
  expect.poll(async () => (await toastsSeen(page)).some((t) => t.includes(text))).toBe(true)

async function noKeyMessage(page: Page): Promise<void> {
  expect((await toastsSeen(page)).filter((t) => /Idempotency|请重新提交/.test(t))).toEqual([])
}

/** Checks the keys of: refused, same again, lost, retried. */
function expectRule(keys: string[]): void {
  expect(keys).toHaveLength(4)
  const [refused, again, lost, retried] = keys
  expect(new Set([refused, again, lost]).size).toBe(3)
  expect(retried).toBe(lost)
}

test('top-up: a new key per answered attempt, the same one to retry a lost answer', async ({
  page,
  scope,
}) => {
  await recordToasts(page)
  await openLoggedIn(page, '/hometopup', await registerPlayer())
  const keys = keysSent(page, usdtPay.path)
  const amount = page.getByRole('textbox', { name: '充值金额' })
  const submit = page.getByRole('button', { name: '提交充值订单' })

  await refuseOnce(scope, usdtPay.path, '充值通道维护中')
  await amount.fill('120')
  await submit.click()
  await sawToast(page, '充值通道维护中')
  await loseOnce(scope, usdtPay.path)
  await submit.click()
  await sawToast(page, '请求失败')
  await submit.click()
  await expect(page.getByTestId('deposit-order-no')).toHaveText(/^D\d+/)
  expect(keys).toHaveLength(3)
  // Refused, then the same amount again (lost), then its retry.
  expect(keys[1]).not.toBe(keys[0])
  expect(keys[2]).toBe(keys[1])
  await noKeyMessage(page)
})

test('exchange: a refused attempt never blocks the next; a lost one is retried with its key', async ({
  page,
  scope,
}) => {
  await recordToasts(page)
  const player = await registerPlayer()
  await topUp(player, '100', scope)
  await openLoggedIn(page, '/exchange', player)
  const keys = keysSent(page, exchange.path)
  const amount = page.getByRole('textbox', { name: '兑换数量（USDT）' })
  const send = async () => {
    await page.getByRole('button', { name: '兑换', exact: true }).click()
    await page.locator('.adm-dialog').getByRole('button', { name: '确认兑换' }).click()
  }

  await refuseOnce(scope, exchange.path, '汇率已变动，请重试')
  await amount.fill('10')
  await send()
  await sawToast(page, '汇率已变动，请重试')
  await refuseOnce(scope, exchange.path, '汇率又变动了')
  await send()
  await sawToast(page, '汇率又变动了')
  await loseOnce(scope, exchange.path)
  await amount.fill('12')
  await send()
  await sawToast(page, '请求失败')
  await send()
  await expect(page.getByTestId('exchange-trx')).toHaveText('75.00TRX')
  expectRule(keys)
  await noKeyMessage(page)
})

test('withdraw: a refused attempt, the same again, a lost one retried', async ({ page, scope }) => {
  await recordToasts(page)
  const player = await registerPlayer('wallet1234')
  const session = await login(player.phone, player.password)
  await api(updatePaymentPassword, {
    token: session.token,
    body: { pay_password: '246810', login_password: player.password },
  })
  await topUp(player, '100', scope)
  await api(bindWallet, {
    token: session.token,
    body: { address: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7', label: '我的钱包', pay_password: '246810' },
  })
  await openLoggedIn(page, '/cash', player)
  const keys = keysSent(page, withdraw.path)
  const sheet = page.locator('.wallet-sheet')
  const attempt = async () => {
    // The sheet clears its cells when the last attempt's answer is in: type only after that.
    await expect(sheet.getByText('正在提交…')).toHaveCount(0)
    await expect(page.getByRole('button', { name: '支付密码', exact: true })).toBeVisible()
    await typeOnKeyboard(page, '246810')
  }

  await page.getByRole('textbox', { name: '提现金额' }).fill('20')
  await page.getByRole('button', { name: '提现', exact: true }).click()
  await refuseOnce(scope, withdraw.path, '风控审核中，请稍后再试')
  await attempt()
  await expect(sheet.getByRole('alert')).toHaveText('风控审核中，请稍后再试')
  await refuseOnce(scope, withdraw.path, '风控审核中，请稍后再试')
  await attempt()
  await expect.poll(() => keys.length).toBe(2)
  await loseOnce(scope, withdraw.path)
  await attempt()
  await expect.poll(() => keys.length).toBe(3)
  await attempt()
  await expect(page.getByTestId('withdraw-result')).toBeVisible()
  expectRule(keys)
  await noKeyMessage(page)
})

test('bets: a refused confirmation, the same again, a lost one retried, on the game page', async ({
  page,
  scope,
}) => {
  test.setTimeout(60_000)
  await recordToasts(page)
  const player = await registerPlayer()
  await topUp(player, '100', scope)
  await openLoggedIn(page, '/games/kuaisan', player)
  const keys = keysSent(page, placeBets.path)
  // All four attempts go to one round: start with time to spare before it closes.
  await expect
    .poll(async () => (await api(currentRound, { query: { game: 'kuaisan' } })).ms_to_seal, {
      timeout: 40_000,
      intervals: [500],
    })
    .toBeGreaterThan(15_000)
  await page.locator('[data-bet-type="big"]').click()
  await page.locator('.games-chip', { hasText: /^5$/ }).click()
  await page.getByTestId('bet-bar').getByRole('button', { name: '投注' }).click()
  const sheet = page.locator('.games-confirm')
  const confirm = sheet.getByRole('button', { name: '确认投注' })

  await refuseOnce(scope, placeBets.path, '投注繁忙，请重试')
  await confirm.click()
  await sawToast(page, '投注繁忙，请重试')
  await refuseOnce(scope, placeBets.path, '投注仍然繁忙')
  await confirm.click()
  await sawToast(page, '投注仍然繁忙')
  await loseOnce(scope, placeBets.path)
  await confirm.click()
  await sawToast(page, '请求失败')
  await confirm.click()
  await sawToast(page, '投注成功')
  expectRule(keys)
  await noKeyMessage(page)
})

test('the test transfer bet: a refused send, the same again, a lost one retried', async ({ page, scope }) => {
  await recordToasts(page)
  const player = await registerPlayer()
  await topUp(player, '100', scope)
  const session = await login(player.phone, player.password)
  await api(bindBetAddress, {
    token: session.token,
    body: {
      address: tronAddressFromAccountId(crypto.getRandomValues(new Uint8Array(20))),
      label: '测试钱包',
    },
  })
  await openLoggedIn(page, '/test-bet', player)
  const keys = keysSent(page, sendTransferBet.path)
  const send = page.getByRole('button', { name: '发送转账投注' })

  await page.getByPlaceholder('转账金额（个位数决定投注项）').fill('15')
  await refuseOnce(scope, sendTransferBet.path, '链上拥堵，请重试')
  await send.click()
  await sawToast(page, '链上拥堵，请重试')
  await refuseOnce(scope, sendTransferBet.path, '链上仍然拥堵')
  await send.click()
  await sawToast(page, '链上仍然拥堵')
  await loseOnce(scope, sendTransferBet.path)
  await send.click()
  await sawToast(page, '请求失败')
  await send.click()
  await expect(page.getByTestId('transfer-result')).toContainText('转账 15.00 USDT')
  expectRule(keys)
  await noKeyMessage(page)
})

test('the rebate claim: a refused claim never blocks the next tap', async ({ page, scope }) => {
  test.setTimeout(60_000)
  await recordToasts(page)
  const player = await registerPlayer()
  await topUp(player, '500', scope)
  const { token } = await login(player.phone, player.password)
  // 200.00 of turnover reaches the first rebate tier.
  const round = await api(currentRound, { query: { game: 'qukuai' } })
  await api(placeBets, {
    token,
    body: {
      game: 'qukuai',
      round_id: round.ms_to_seal < 1_500 ? round.next.round_id : round.round_id,
      bets: [{ bet_type: 'big', amount: '200' }],
    },
  })
  await expect
    .poll(async () => toMicro((await api(rebateSummary, { token })).claimable), {
      timeout: 20_000,
      intervals: [500],
    })
    .toBeGreaterThan(0)
  await openLoggedIn(page, '/backwater', player)
  const keys = keysSent(page, rebateClaim.path)
  const claim = page.getByRole('button', { name: '一键领取' })

  await refuseOnce(scope, rebateClaim.path, '返水结算中，请稍后再试')
  await claim.click()
  await sawToast(page, '返水结算中，请稍后再试')
  await loseOnce(scope, rebateClaim.path)
  await claim.click()
  await sawToast(page, '请求失败')
  await claim.click()
  await sawToast(page, '领取成功')
  expect(keys).toHaveLength(3)
  // The same claim each time: refused, then a new attempt whose answer was lost, then its retry.
  expect(keys[1]).not.toBe(keys[0])
  expect(keys[2]).toBe(keys[1])
  await noKeyMessage(page)
})
