import { join, resolve } from 'node:path'
import { test as base, expect, type Page } from '@playwright/test'
import { getBalance, login } from '@shared/contract/account'
import { currentRound } from '@shared/contract/games'
import { bindWallet, listWallets } from '@shared/contract/wallet'
import { confirmDeposit } from '@shared/emu-contract/wallet'
import { EmuClient } from '../scripts/emu/emu-client'
import { main as upstreamCheck } from '../scripts/upstream-check'
import { type MarketFront, startMarketFront } from '../server/test-support/market-front'
import { api } from './support/api'
import { DEMO, type LoginResult } from './support/emu'
import { type Started, startServer } from './support/server-process'
import { storeSessionOnLoad, typeOnKeyboard } from './support/test'

/**
 * The player's journeys in proxy mode against a backend with this market's habits: the built server
 * in emulator mode (the backend's data), the market front before it (server/test-support/market-
 * front.ts: the market's paths, names, types, codes and pages) and the built server in proxy mode
 * before that with the shipped adapter file. One set per worker, started once for the file's tests,
 * which run in order in one worker; the app under test is the proxy.
 *
 * E2E_MARKET_ADAPTER points the proxy at another adapter file: with one rename taken out, the
 * journey that needs it fails.
 */

const ADAPTER = resolve(
  process.env.E2E_MARKET_ADAPTER ?? join('fixtures', 'upstream', 'market-habits.adapter.yaml'),
)
const ADMIN_TOKEN = 'market-spec-admin-token'
const ADDRESS = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7'
const GAME = 'kuaisan'

interface MarketSet {
  /** The server in proxy mode with the adapter: the app the browser opens. */
  proxy: string
  front: MarketFront
  /**
   * The emulator itself, in the contract's shape: the tests set up and read reference values there,
   * so that only the page goes through the market and the adapter.
   */
  emulator: string
  /** The emulator's control API: its chain, back office and world clock. */
  emu: EmuClient
}

const test = base.extend<{ pageErrors: string[] }, { market: MarketSet }>({
  market: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const stops: (() => Promise<void>)[] = []
      try {
        const emulator: Started = await startServer()
        stops.push(emulator.stop)
        const front = await startMarketFront({ emulator: emulator.base })
        stops.push(front.close)
        const proxy = await startServer({
          env: {
            MODE: 'proxy',
            UPSTREAM_URL: front.url,
            UPSTREAM_ADAPTER: ADAPTER,
            EMU_ADMIN_TOKEN: ADMIN_TOKEN,
          },
          ready: '/readyz',
        })
        stops.push(proxy.stop)
        await use({
          proxy: proxy.base,
          front,
          emulator: emulator.base,
          emu: new EmuClient({ url: emulator.base }),
        })
      } finally {
        for (const stop of stops.reverse()) await stop()
      }
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  baseURL: async ({ market }, use) => use(market.proxy),
  pageErrors: async ({ page }, use) => {
    const errors: string[] = []
    page.on('pageerror', (err) => errors.push(err.stack ?? err.message))
    await use(errors)
    expect(errors, 'uncaught errors in the page').toEqual([])
  },
})

// One set of servers for the file: its tests run one after another in one worker.
test.describe.configure({ mode: 'default' })

/** Logs the demo player in (on the emulator: the token is the same); the session is stored on every load. */
async function loggedIn(page: Page, market: MarketSet): Promise<LoginResult> {
  const session = await api(login, {
    base: market.emulator,
    body: { phone: DEMO.phone, password: DEMO.password },
  })
  await storeSessionOnLoad(page, session)
  return session
}

const balanceOf = async (market: MarketSet, session: LoginResult) =>
  (
    await api(getBalance, {
      base: market.emulator,
      token: session.token,
      query: { player_id: session.player_id },
    })
  ).balance

test('log in on the login page: the market’s login answers, and 我的 shows the balance', async ({
  page,
  market,
  pageErrors,
}) => {
  await page.goto('/login')
  const form = page.locator('.adm-tabs-content:visible, form:visible').last()
  await form.getByPlaceholder('请输入手机号').fill(DEMO.phone)
  await form.getByPlaceholder('请输入密码').fill(DEMO.password)
  await form.getByRole('button', { name: '登录', exact: true }).click()
  await expect(page).not.toHaveURL(/\/login/)
  expect(market.front.calls.some((c) => c.url === '/api/user/login')).toBe(true)

  await page.goto('/mine')
  await expect(page.locator('.mine-page__name')).toHaveText('演示玩家')
  await expect(page.getByTestId('balance')).toHaveText(/^\d+\.\d{2,6}\s*USDT$/)
  const session = await api(login, {
    base: market.emulator,
    body: { phone: DEMO.phone, password: DEMO.password },
  })
  const balance = await balanceOf(market, session)
  await expect(page.getByTestId('balance')).toHaveText(new RegExp(`^${balance.replace('.', '\\.')}\\s*USDT$`))
  expect(pageErrors).toEqual([])
})

test('top up: the order follows the chain to 已到账, and shows in the top-up history and the fund flow', async ({
  page,
  market,
}) => {
  await loggedIn(page, market)
  await page.goto('/hometopup')
  await expect(page.getByTestId('deposit-address')).toHaveText(/^T\w{33}$/)
  await page.getByRole('textbox', { name: '充值金额' }).fill('23.45')
  await page.getByRole('button', { name: '提交充值订单' }).click()
  const order = page.getByTestId('deposit-order')
  await expect(order.locator('.wallet-status')).toHaveText('确认中')
  const orderNo = (await page.getByTestId('deposit-order-no').textContent()) ?? ''
  expect(orderNo).toMatch(/^D\d+/)

  await market.emu.control(confirmDeposit, { params: { id: orderNo } })
  // The page asks the market for the order again by itself (its id in the path).
  await expect(order.locator('.wallet-status')).toHaveText('已到账', { timeout: 10_000 })

  await page.goto('/tophistory')
  const record = page.locator(`[data-testid="deposit-record"][data-order-no="${orderNo}"]`)
  await expect(record.locator('.wallet-status')).toHaveText('已到账')
  await expect(record).toContainText('23.45')

  await page.goto('/finance')
  const row = page
    .getByTestId('fund-flow-row')
    .filter({ hasText: orderNo })
    .and(page.locator('[data-type="topup"]'))
  await expect(row).toContainText('充值')
  await expect(row).toContainText('+23.45USDT')
})

test('withdraw to a bound address with the payment password: in the withdrawal history and the fund flow', async ({
  page,
  market,
}) => {
  const session = await loggedIn(page, market)
  const token = session.token
  const bound = await api(listWallets, { base: market.emulator, token })
  if (!bound.list.some((w) => w.address === ADDRESS)) {
    await api(bindWallet, {
      base: market.emulator,
      token,
      body: { address: ADDRESS, label: '冷钱包', pay_password: DEMO.payPassword },
    })
  }
  await page.goto('/cash')
  await expect(page.getByTestId('withdraw-address-label')).toContainText('冷钱包')
  await page.getByRole('textbox', { name: '提现金额' }).fill('20.5')
  await expect(page.getByTestId('withdraw-fee')).toHaveText('1.00 USDT')
  await expect(page.getByTestId('withdraw-total')).toHaveText('21.50 USDT')
  await page.getByRole('button', { name: '提现', exact: true }).click()
  await expect(page.getByRole('button', { name: '支付密码', exact: true })).toBeVisible()
  await typeOnKeyboard(page, DEMO.payPassword)

  const result = page.getByTestId('withdraw-result')
  await expect(result.locator('.wallet-status')).toHaveText('审核中')
  const orderNo = (await page.getByTestId('withdraw-order-no').textContent()) ?? ''
  expect(orderNo).not.toBe('')
  await expect(page.getByTestId('wallet-balance')).toHaveText(`${await balanceOf(market, session)}USDT`)

  await page.goto('/tophistory?tab=withdraw')
  const record = page.locator(`[data-testid="withdrawal-record"][data-order-no="${orderNo}"]`)
  await expect(record.locator('.wallet-status')).toHaveText('审核中')
  await expect(record).toContainText('20.50USDT')
  await expect(record).toContainText('冷钱包')

  await page.goto('/finance')
  const rows = page.getByTestId('fund-flow-row').filter({ hasText: orderNo })
  await expect(rows).toHaveCount(2)
  await expect(rows.and(page.locator('[data-type="withdrawal"]'))).toContainText('-20.50USDT')
  await expect(rows.and(page.locator('[data-type="withdrawal_fee"]'))).toContainText('-1.00USDT')

  // The type filter asks in the market's words, and narrows the list.
  await page.getByText('全部类型').click()
  await page.locator('.adm-dropdown-popup').getByText('提现手续费', { exact: true }).click()
  await expect
    .poll(() =>
      market.front.calls.some(
        (c) => c.url.startsWith('/api/wallet/flows?') && c.url.includes('type=tixian_shouxufei'),
      ),
    )
    .toBe(true)
  const all = page.getByTestId('fund-flow-row')
  await expect(all.filter({ hasText: orderNo })).toHaveCount(1)
  await expect(all.and(page.locator(':not([data-type="withdrawal_fee"])'))).toHaveCount(0)
})

test('a game round: a bet on 快三, its draw in the round panel and the results strip, then in the bet history', async ({
  page,
  market,
}) => {
  test.setTimeout(60_000)
  await loggedIn(page, market)
  // The emulator's world clock is this file's own: a round with little time left is skipped.
  let round = await api(currentRound, { base: market.emulator, query: { game: GAME } })
  if (round.ms_to_seal < 20_000) {
    await market.emu.advanceClock(round.ms_to_draw + 1_000)
    round = await api(currentRound, { base: market.emulator, query: { game: GAME } })
  }
  // The page's clock moves with the world clock, as a phone's does with the server's.
  await page.clock.install()
  await page.goto(`/games/${GAME}`)
  await expect(page.getByTestId('round-id')).toHaveText(round.round_id)
  await expect(page.getByTestId('round-state')).toHaveText('投注中')

  await page.locator('[data-bet-type="big"]').click()
  await page.locator('.games-chip', { hasText: /^10$/ }).click()
  const bar = page.getByTestId('bet-bar')
  await expect(bar).toContainText(`投注进入第 ${round.round_id} 期`)
  await bar.getByRole('button', { name: '投注' }).click()
  const sheet = page.locator('.games-confirm')
  await expect(sheet.getByTestId('confirm-round')).toHaveText(`确认投注 · 第 ${round.round_id} 期`)
  await sheet.getByRole('button', { name: '确认投注' }).click()
  await expect(page.getByTestId('my-bet-status')).toHaveText('待开奖')
  expect(market.front.calls.some((c) => c.url === '/api/game/bet')).toBe(true)

  // Past the draw: the page finds the result by itself.
  await market.emu.advanceClock(round.ms_to_draw + 500)
  await page.clock.fastForward(round.ms_to_draw + 500)
  await expect(page.getByTestId('previous-draw')).toHaveAttribute('data-round-id', round.round_id, {
    timeout: 15_000,
  })
  await expect(page.locator(`[data-testid="strip-draw"][data-round-id="${round.round_id}"]`)).toBeVisible()
  await expect(page.getByTestId('my-bet-status')).toHaveText(/^(已中奖 \+\d+\.\d{2}|未中奖)$/)
  const status = (await page.getByTestId('my-bet-status').textContent()) ?? ''

  await page.goto('/bethistory')
  const row = page.getByTestId('bet-row').first()
  await expect(row).toContainText(`第 ${round.round_id} 期`)
  await expect(row).toContainText(status.startsWith('已中奖') ? '已中奖' : '未中奖')
  await expect(row.getByTestId('bet-result').getByTestId('draw-labels')).toHaveText(/^[大小][单双]$/)
})

test('the invite page: the code, the link and its QR code', async ({ page, market }) => {
  await loggedIn(page, market)
  await page.goto('/invite-friends')
  await expect(page.getByTestId('invite-code')).toHaveText('DEMO88')
  await expect(page.getByTestId('invite-link')).toContainText('invite_code=DEMO88')
  await expect(page.getByRole('img', { name: '邀请二维码' })).toBeVisible()
})

test('the contract watch found no answer that differs, and upstream:check passes against the market', async ({
  market,
  request,
}) => {
  const res = await request.get(`${market.proxy}/__emu/upstream/contract`, {
    headers: { 'x-emu-admin-token': ADMIN_TOKEN },
  })
  // Every answer was checked (sample 1), and no kind of difference was counted.
  expect((await res.json()).data).toMatchObject({ checked: true, sample: 1, violations: [] })

  let report = ''
  const exit = await upstreamCheck(
    [
      '--url',
      market.front.url,
      '--phone',
      DEMO.phone,
      '--password',
      DEMO.password,
      '--pay-password',
      DEMO.payPassword,
      // The writes that are harmless or undone at once too (an address bound and deleted again).
      '--allow-writes',
      '--adapter',
      ADAPTER,
    ],
    (text) => {
      report += text
    },
  )
  expect(exit, report).toBe(0)
})
