import type { Page } from '@playwright/test'
import { DAY_MS, dayOf } from '@shared/business-day'
import { approveWithdrawal } from '@shared/emu-contract/wallet'
import { addFault, DEMO, emu, registerPlayer, smsCode, topUp } from './support/emu'
import { expect, openLoggedIn, recordToasts, test, toastsSeen } from './support/test'

const MINUTE = 60_000

/** Whether the page showed a toast containing this text (recorded, so a short-lived one counts). */
const sawToast = (page: Page, text: string) =>
  expect.poll(async () => (await toastsSeen(page)).some((t) => t.includes(text))).toBe(true)

/** Moves this test's own clock (its scope), which the reality check of its session follows. */
async function advanceScopeClock(scope: string, ms: number): Promise<void> {
  await emu(scope).advanceClock(ms)
}

test('the play-responsibly page is reached from 我的 and from a game page, with each game’s house edge', async ({
  page,
}) => {
  await openLoggedIn(page, '/mine')
  await page.getByText('负责任博彩', { exact: true }).click()
  await expect(page).toHaveURL(/\/responsible$/)
  const edges = page.getByTestId('house-edge')
  await expect(edges).toContainText('区块游戏')
  await expect(edges).toContainText('2.00%')
  await expect(edges).toContainText('平均每投注 100 USDT，长期损失约')
  await expect(page.getByTestId('protection-links')).toContainText('充值限额与亏损限额')

  await page.goto('/games/kuaisan')
  await page.getByRole('link', { name: '负责任博彩' }).click()
  await expect(page).toHaveURL(/\/responsible$/)
  await page.locator('.adm-list-item', { hasText: '输赢统计' }).click()
  await expect(page).toHaveURL(/\/net-position$/)
})

test('sets a deposit limit at once; a raise waits 24 h and the page says when', async ({ page }) => {
  await recordToasts(page)
  await openLoggedIn(page, '/protection', await registerPlayer())
  const deposit = page.getByTestId('limits-deposit')
  await deposit.locator('.adm-list-item', { hasText: '每日' }).click()
  await deposit.getByPlaceholder('请输入金额').fill('100')
  await deposit.getByRole('button', { name: '保存' }).click()
  await sawToast(page, '限额已生效')
  await expect(deposit.locator('.adm-list-item', { hasText: '每日' })).toContainText('100.00USDT')

  await deposit.locator('.adm-list-item', { hasText: '每日' }).click()
  await deposit.getByPlaceholder('请输入金额').fill('500')
  await deposit.getByRole('button', { name: '保存' }).click()
  await sawToast(page, '已提交，将于')
  await expect(deposit.getByTestId('limit-pending')).toContainText('调整为 500.00USDT将于')
  await expect(deposit.locator('.adm-list-item', { hasText: '每日' })).toContainText('100.00USDT')

  // The top-up that would pass it is refused with the limit and its reset named.
  await page.goto('/hometopup')
  await page.getByPlaceholder(/^最低 /).fill('150')
  await page.getByRole('button', { name: '提交充值订单' }).click()
  await expect(page.getByTestId('refusal-dialog')).toContainText('超出每日充值限额 100.00 USDT')
})

test('the reality check comes when the interval is up, survives a reload, and comes back after 继续游戏', async ({
  page,
  scope,
}) => {
  await recordToasts(page)
  await openLoggedIn(page, '/protection', await registerPlayer())
  await page.getByTestId('reality-check-settings').getByText('15 分钟').click()
  await sawToast(page, '每 15 分钟提醒一次')
  const dialog = page.getByTestId('reality-check')
  await expect(dialog).toBeHidden()

  await advanceScopeClock(scope, 16 * MINUTE)
  await page.goto('/home')
  await expect(dialog).toBeVisible()
  await expect(dialog).toContainText('16分钟')
  await expect(dialog).toContainText('0.00USDT')
  await page.reload()
  await expect(dialog).toBeVisible()

  await page.getByRole('button', { name: '继续游戏' }).click()
  await expect(dialog).toBeHidden()
  await page.reload()
  await expect(page.getByRole('heading', { level: 1 }).or(page.locator('.home-page')).first()).toBeVisible()
  await expect(dialog).toBeHidden()

  await advanceScopeClock(scope, 15 * MINUTE)
  await page.reload()
  await expect(dialog).toBeVisible()
  await expect(dialog).toContainText('31分钟')
  await page.getByRole('button', { name: '停止游戏' }).click()
  await expect(page).toHaveURL(/\/login/)
  await expect(dialog).toBeHidden()
})

test('a time-out needs the password, logs out at once, and login then says until when', async ({ page }) => {
  await recordToasts(page)
  const player = await registerPlayer()
  await openLoggedIn(page, '/protection', player)
  const form = page.getByTestId('exclusion-form')
  await form.getByText('24 小时', { exact: true }).click()
  await form.getByPlaceholder('请输入登录密码以确认').fill(player.password)
  await form.getByRole('button', { name: '确认暂停游戏 24 小时' }).click()
  await page.getByRole('button', { name: '确认', exact: true }).click()
  // The confirmation may still be fading out while the answer opens.
  await expect(page.getByRole('dialog').getByText(/已生效，至/)).toBeVisible()
  await page.getByRole('button', { name: '知道了' }).click()
  await expect(page).toHaveURL(/\/responsible$/)

  await page.goto('/login')
  await page.getByPlaceholder('请输入手机号').fill(player.phone)
  await page.getByPlaceholder('请输入密码').fill(player.password)
  await page.getByRole('button', { name: '登录' }).click()
  await expect(page.getByTestId('refusal-dialog')).toContainText('您已选择暂停游戏，至')

  await page.goto('/protection/withdraw')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('暂停期提现')
})

test('a player with no address and no payment password gets money out during a time-out', async ({
  page,
}) => {
  await recordToasts(page)
  const player = await registerPlayer()
  await topUp(player, '100')
  await openLoggedIn(page, '/protection', player)
  const form = page.getByTestId('exclusion-form')
  await form.getByText('7 天', { exact: true }).click()
  await form.getByPlaceholder('请输入登录密码以确认').fill(player.password)
  await form.getByRole('button', { name: '确认暂停游戏 7 天' }).click()
  // Before confirming, the dialog says what a withdrawal will need.
  const confirm = page.getByTestId('exclusion-confirm')
  await expect(confirm).toContainText('余额仍可提现')
  await expect(page.getByTestId('exclusion-missing')).toContainText('你还没有绑定提现地址和设置支付密码')
  await expect(page.getByTestId('exclusion-missing')).toContainText('短信验证码')
  await page.getByRole('button', { name: '确认', exact: true }).click()
  await page.getByRole('button', { name: '知道了' }).click()
  await expect(page).toHaveURL(/\/responsible$/)

  await page.goto('/protection/withdraw')
  await page.getByPlaceholder('注册手机号').fill(player.phone)
  await page.getByPlaceholder('登录密码').fill(player.password)
  await page.getByRole('button', { name: '下一步' }).click()
  await expect(page.getByTestId('excluded-balance')).toHaveText('110.00')
  await expect(page.getByTestId('excluded-fee')).toHaveText('1.00')

  await page.getByPlaceholder('TRC20 地址，以 T 开头').fill('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')
  await page.getByPlaceholder('选填，如：我的钱包').fill('我的钱包')
  await page.getByPlaceholder('设置6位数字').fill('135790')
  await page.getByPlaceholder('再次输入').fill('135790')
  await page.getByRole('button', { name: '获取验证码' }).click()
  await sawToast(page, '验证码已发送')
  await page.getByPlaceholder('短信验证码').fill(await smsCode(player.phone))
  await page.getByRole('button', { name: '绑定并继续' }).click()
  await sawToast(page, '提现地址已绑定')
  await expect(page.getByTestId('excluded-summary')).toContainText('提现至 我的钱包')

  // A refused attempt, then the corrected one: each its own attempt, never the key's refusal.
  await page.getByPlaceholder(/^最多/).fill('500')
  await page.getByPlaceholder('6位数字', { exact: true }).fill('135790')
  await page.getByRole('button', { name: '提交提现' }).click()
  await sawToast(page, '余额不足')
  await page.getByPlaceholder(/^最多/).fill('50')
  await page.getByRole('button', { name: '提交提现' }).click()
  await expect(page.getByText('提现已提交')).toBeVisible()
  // Amounts render as figure and unit (the Amount component); the unit may follow without a space.
  const result = page.getByText(/^订单 W\d+，金额 50\.00 ?USDT，手续费 1\.00 ?USDT，余额 59\.00 ?USDT$/)
  await expect(result).toBeVisible()
  // The back office pays it out: the money is sent.
  const orderNo = (await result.textContent())?.match(/W\d+/)?.[0] ?? ''
  const paid = await emu().control(approveWithdrawal, { params: { id: orderNo } })
  expect(paid).toMatchObject({ order_no: orderNo, status: 'approved', amount: '50.00' })
  expect((await toastsSeen(page)).filter((t) => t.includes('Idempotency'))).toEqual([])
})

test('net position shows the ledger’s totals per span with a chart', async ({ page, request }) => {
  const session = await openLoggedIn(page, '/net-position', DEMO)
  const res = await request.get('/api/protection/net-position', { headers: { token: session.token } })
  const { data } = (await res.json()) as {
    data: { spans: { span: string; deposits: string; stakes: string; net_result: string }[] }
  }
  const totals = page.getByTestId('net-totals')
  const month = data.spans.find((s) => s.span === '30d')
  if (!month) throw new Error('no 30-day span')
  await page.getByText('近 30 天', { exact: true }).click()
  await expect(totals.locator('.adm-list-item', { hasText: '充值' }).first()).toContainText(month.deposits)
  await expect(totals.locator('.adm-list-item', { hasText: '投注' })).toContainText(month.stakes)
  await expect(page.getByTestId('net-chart').locator('rect')).toHaveCount(30)
  await page.getByText('近 7 天', { exact: true }).click()
  await expect(page.getByTestId('net-chart').locator('rect')).toHaveCount(7)

  // A chosen range of ten business days (CST), ending today by the server's world clock (which a
  // tester may have moved), not the test machine's.
  const now = (await emu().clock()).now
  const today = dayOf(now)
  const start = dayOf(now - 9 * DAY_MS)
  await page.getByText('自选区间', { exact: true }).click()
  await page.getByLabel('开始日期').fill(start)
  await page.getByLabel('结束日期').fill(today)
  await page.getByRole('button', { name: '查询' }).click()
  await expect(page.getByTestId('net-span')).toContainText(`${start} 至 ${today}`)
  await expect(page.getByTestId('net-chart').locator('rect')).toHaveCount(10)
})

test('a server without the protection endpoints hides them; the pages still work', async ({
  page,
  scope,
  pageErrors,
}) => {
  await addFault(scope, {
    match: { path: '/api/protection/**' },
    action: { type: 'status', status: 404, body: 'Not Found' },
  })
  await recordToasts(page)
  const noFailureToast = async () =>
    expect((await toastsSeen(page)).filter((t) => t.includes('请求失败'))).toEqual([])
  await openLoggedIn(page, '/protection')
  await expect(page.getByTestId('endpoint-missing')).toHaveText('当前服务暂不支持此功能。')
  await noFailureToast()
  await page.goto('/responsible')
  await expect(page.getByTestId('house-edge')).toContainText('快三')
  await expect(page.getByTestId('protection-links')).toBeHidden()
  await noFailureToast()
  await page.goto('/home')
  await expect(page.getByTestId('reality-check')).toBeHidden()
  expect(pageErrors).toEqual([])
})
