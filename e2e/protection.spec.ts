import type { Page } from '@playwright/test'
import { addFault, DEMO, emu, registerPlayer } from './support/emu'
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
  await deposit.getByPlaceholder('请输入金额 (USDT)').fill('100')
  await deposit.getByRole('button', { name: '保存' }).click()
  await sawToast(page, '限额已生效')
  await expect(deposit.locator('.adm-list-item', { hasText: '每日' })).toContainText('100.00USDT')

  await deposit.locator('.adm-list-item', { hasText: '每日' }).click()
  await deposit.getByPlaceholder('请输入金额 (USDT)').fill('500')
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

  // A chosen range of ten business days (CST), ending today.
  const cstDay = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 10)
  const today = cstDay(Date.now())
  const start = cstDay(Date.now() - 9 * 86_400_000)
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
  await expect(page.getByTestId('protection-missing')).toHaveText('当前服务暂不支持此功能。')
  await noFailureToast()
  await page.goto('/responsible')
  await expect(page.getByTestId('house-edge')).toContainText('快三')
  await expect(page.getByTestId('protection-links')).toBeHidden()
  await noFailureToast()
  await page.goto('/home')
  await expect(page.getByTestId('reality-check')).toBeHidden()
  expect(pageErrors).toEqual([])
})
