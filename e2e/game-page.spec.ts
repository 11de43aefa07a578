import type { Page } from '@playwright/test'
import { getBalance, updatePaymentPassword } from '@shared/contract/account'
import { betHistory, currentRound, gameResults, placeBets } from '@shared/contract/games'
import { bindWallet, usdtPay } from '@shared/contract/wallet'
import { confirmDeposit, rejectWithdrawal } from '@shared/emu-contract/wallet'
import { api } from './support/api'
import { emu, login, registerPlayer, topUp } from './support/emu'
import { expect, openLoggedIn, switchTheme, test, typeOnKeyboard } from './support/test'

/**
 * The game page this market expects (docs/game-rules.md, docs/client.md): the sealed mask, the
 * streak board, pull to refresh, the drawn result on each bet record, racing car colours, the draw
 * chime, a bet sheet that never opens on a round about to close; and /cash following a decision.
 */

const now = () => Date.now()

/** Answers the round call with a sealed round of fast three, relative to the real time. */
async function sealedRound(page: Page) {
  await page.route('**/api/games/round?*', (route) => {
    const t = now()
    const round = { game: 'kuaisan', height: 1000, seal_at: t - 1_000, draw_at: t + 30_000 }
    route.fulfill({
      json: {
        code: 1,
        msg: '成功',
        data: {
          ...round,
          round_id: '202611270601',
          server_time: t,
          ms_to_seal: 0,
          ms_to_draw: 30_000,
          state: 'SEALED',
          next: {
            game: 'kuaisan',
            round_id: '202611270602',
            height: 1020,
            seal_at: t + 87_000,
            draw_at: t + 90_000,
          },
          previous: null,
        },
      },
    })
  })
}

test('while the round is sealed a mask over the bet board says so and that picks go to the next round', async ({
  page,
}) => {
  await sealedRound(page)
  await page.goto('/games/kuaisan')
  const mask = page.getByTestId('sealed-mask')
  await expect(mask).toContainText('第 202611270601 期已封盘')
  await expect(mask).toContainText('现在选择的投注将进入第 202611270602 期')
  // The mask lies over the board: a tap on a bet type lands on it.
  const big = page.locator('[data-bet-type="big"]')
  const onTop = await big.evaluate((el) => {
    const r = el.getBoundingClientRect()
    return (
      document
        .elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)
        ?.closest('[data-testid="sealed-mask"]') !== null
    )
  })
  expect(onTop).toBe(true)
  await mask.getByRole('button', { name: '继续选择第 202611270602 期' }).click()
  await expect(mask).toBeHidden()
  await big.click()
  await expect(big).toHaveAttribute('aria-pressed', 'true')
  await expect(page.getByTestId('bar-target')).toHaveText('投注进入第 202611270602 期')
})

test('the streak board shows the current run of each bet type from the results', async ({ page }) => {
  const labels = (big_small: string, odd_even: string) => ({ big_small, odd_even })
  const rows = [
    labels('big', 'odd'),
    labels('big', 'even'),
    labels('big', 'even'),
    labels('big', 'even'),
    labels('big', 'odd'),
    labels('small', 'odd'),
  ]
  const list = rows.map((l, i) => ({
    game: 'kuaisan',
    round_id: String(202611270600 - i),
    height: 1000 - i * 20,
    block_hash: '0'.repeat(64),
    draw_at: 1_700_000_000_000 - i * 60_000,
    numbers: [6, 5, 4],
    labels: l,
  }))
  await page.route('**/api/games/results?*', (route) =>
    route.fulfill({
      json: { code: 1, msg: '成功', data: { list, page: 1, page_size: 50, total: 6, has_more: false } },
    }),
  )
  await page.goto('/games/kuaisan')
  const board = page.getByTestId('streaks')
  await expect(board).toContainText('长龙')
  const bigSmall = board.locator('[data-attribute="big_small"]')
  await expect(bigSmall).toHaveAttribute('data-count', '5')
  await expect(bigSmall).toHaveText(/大\s*大小\s*5 期/)
  await expect(board.locator('[data-attribute="odd_even"]')).toHaveAttribute('data-count', '1')
  // Longest first.
  await expect(board.getByTestId('streak').first()).toHaveAttribute('data-attribute', 'big_small')
})

test('racing cars have a distinct, readable colour per number in both themes', async ({ page }) => {
  const list = [
    {
      game: 'saiche',
      round_id: '202611270600',
      height: 1000,
      block_hash: '0'.repeat(64),
      draw_at: 1_700_000_000_000,
      numbers: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
      labels: { top2_big_small: 'small' },
    },
  ]
  await page.route('**/api/games/results?*', (route) =>
    route.fulfill({
      json: { code: 1, msg: '成功', data: { list, page: 1, page_size: 50, total: 1, has_more: false } },
    }),
  )
  await page.goto('/games/saiche')
  const strip = page.getByTestId('results-strip')
  await expect(strip.locator('.games-car')).toHaveCount(10)
  for (const theme of ['light', 'dark'] as const) {
    await switchTheme(page, theme)
    const cars = await strip.locator('.games-car').evaluateAll((els) => {
      const lum = (c: string) => {
        const [r, g, b] = (c.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((v) => {
          const s = Number(v) / 255
          return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
        })
        return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0)
      }
      return els.map((el) => {
        const s = getComputedStyle(el)
        const [a, b] = [lum(s.backgroundColor), lum(s.color)]
        return { bg: s.backgroundColor, contrast: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) }
      })
    })
    expect(new Set(cars.map((c) => c.bg)).size, theme).toBe(10)
    for (const c of cars) expect(c.contrast, `${theme} ${c.bg}`).toBeGreaterThanOrEqual(4.5)
  }
})

test('each bet record shows what its round drew', async ({ page, scope }) => {
  test.setTimeout(45_000)
  const player = await registerPlayer()
  await topUp(player, '100', scope)
  const session = await login(player.phone, player.password)
  const round = await api(currentRound, { scope, query: { game: 'qukuai' } })
  await api(placeBets, {
    token: session.token,
    scope,
    body: { game: 'qukuai', round_id: round.next.round_id, bets: [{ bet_type: 'odd', amount: '2' }] },
  })
  await expect
    .poll(
      async () =>
        (await api(gameResults, { scope, query: { game: 'qukuai', page_size: 5 } })).list.map(
          (d) => d.round_id,
        ),
      {
        timeout: 15_000,
      },
    )
    .toContain(round.next.round_id)
  const draw = (await api(gameResults, { scope, query: { game: 'qukuai', page_size: 10 } })).list.find(
    (d) => d.round_id === round.next.round_id,
  )
  await openLoggedIn(page, '/bethistory', player)
  const result = page.getByTestId('bet-row').first().getByTestId('bet-result')
  for (const [i, n] of (draw?.numbers ?? []).entries())
    await expect(result.getByRole('img', { name: `${['哈希位', '庄点', '闲点'][i]} ${n}` })).toBeVisible()
})

/** A finger drags down from the top of `el`'s box and lets go. */
async function pullDown(page: Page, selector: string) {
  const box = await page.locator(selector).first().boundingBox()
  const x = Math.round((box?.x ?? 0) + 20)
  const top = Math.round((box?.y ?? 0) + 5)
  const cdp = await page.context().newCDPSession(page)
  const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', y?: number) =>
    cdp.send('Input.dispatchTouchEvent', { type, touchPoints: y === undefined ? [] : [{ x, y }] })
  await touch('touchStart', top)
  for (let y = top + 10; y <= top + 300; y += 15) await touch('touchMove', y)
  await touch('touchEnd')
}

test('pulling down refreshes 首页 and the game pages', async ({ page, scope }) => {
  const player = await registerPlayer()
  await topUp(player, '100', scope)
  await openLoggedIn(page, '/home', player)
  await expect(page.getByTestId('balance')).toHaveText(/^110\.00\s*USDT$/)
  const balanceCall = page.waitForRequest((r) => r.url().includes('/api/api/getBalance'))
  await pullDown(page, '.home-page__header')
  await balanceCall
  await expect(page.getByTestId('pull-refresh-head')).toHaveText(/加载中|刷新成功|^$/)

  await page.goto('/games/kuaisan')
  await expect(page.getByTestId('round')).toBeVisible()
  const resultsCall = page.waitForRequest((r) => r.url().includes('/api/games/results'))
  const pendingCall = page.waitForRequest(
    (r) => r.url().includes('/api/games/bets') && r.url().includes('status=pending'),
  )
  await pullDown(page, '[data-testid="round"]')
  await resultsCall
  await pendingCall
})

test('a draw plays a chime of at least 0.4 s', async ({ page }) => {
  await page.addInitScript(() => {
    const notes: { start: number; stop: number; hz: number }[] = []
    ;(window as unknown as { __notes: typeof notes }).__notes = notes
    const Real = window.AudioContext
    class Recording extends Real {
      override createOscillator() {
        const osc = super.createOscillator()
        const note = { start: 0, stop: 0, hz: 0 }
        const start = osc.start.bind(osc)
        const stop = osc.stop.bind(osc)
        osc.start = (t = 0) => {
          note.start = t
          note.hz = osc.frequency.value
          notes.push(note)
          start(t)
        }
        osc.stop = (t = 0) => {
          note.stop = t
          stop(t)
        }
        return osc
      }
    }
    window.AudioContext = Recording
  })
  await page.goto('/games/qukuai')
  await expect(page.getByTestId('round')).toBeVisible()
  // The block game draws every 3 s.
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __notes: unknown[] }).__notes.length), {
      timeout: 10_000,
    })
    .toBeGreaterThan(0)
  const notes = await page.evaluate(
    () => (window as unknown as { __notes: { start: number; stop: number }[] }).__notes,
  )
  const first = Math.min(...notes.map((n) => n.start))
  const last = Math.max(...notes.map((n) => n.stop))
  expect(last - first).toBeGreaterThanOrEqual(0.4)
})

test('the block game’s bet sheet opens on a round with time to confirm, and says so before the tap', async ({
  page,
  scope,
}) => {
  test.setTimeout(90_000)
  const player = await registerPlayer()
  await topUp(player, '100', scope)
  await openLoggedIn(page, '/games/qukuai', player)
  await expect(page.getByTestId('balance').first()).toHaveText(/^110\.00\s*USDT$/)
  const bar = page.getByTestId('bet-bar')
  const sheet = page.locator('.games-confirm')
  // Ten confirmations, each tapped 1.5 s after the sheet opened, at whatever moment of the block.
  for (let i = 0; i < 10; i++) {
    await page.locator('[data-bet-type="odd"]').click()
    await page.locator('.games-chip', { hasText: /^1$/ }).click()
    await expect(bar.getByTestId('bar-target')).toHaveText(/投注进入第 \d+ 期$/)
    await bar.getByRole('button', { name: '投注' }).click()
    await expect(sheet.getByTestId('confirm-note')).toBeVisible()
    await page.waitForTimeout(1_500)
    await expect(sheet.getByTestId('round-moved')).toHaveCount(0)
    await sheet.getByRole('button', { name: '确认投注' }).click()
    await expect(sheet).toBeHidden()
    await page.waitForTimeout(300 * (i % 4))
  }
  // Every confirmation placed its stake: 10 × 1 USDT on the server. Two confirmations that land in
  // the same round add to one bet (one bet per side and round), so the number of bets depends on
  // timing; the page lists each of them once.
  const session = await login(player.phone, player.password)
  const history = await api(betHistory, { query: { game: 'qukuai', page_size: 20 }, token: session.token })
  expect(history.summary.stake).toBe('10.00')
  await expect(page.getByTestId('my-bet-status')).toHaveCount(history.total)
})

test('/cash follows a rejected withdrawal: status and balance when the page is shown again', async ({
  page,
}) => {
  const PAY = '246810'
  const who = await registerPlayer('wallet1234')
  const session = await login(who.phone, who.password)
  await api(updatePaymentPassword, {
    token: session.token,
    body: { pay_password: PAY, login_password: who.password },
  })
  const order = await api(usdtPay, { token: session.token, body: { amount: '100' } })
  await emu().control(confirmDeposit, { params: { id: order.order_no } })
  await api(bindWallet, {
    token: session.token,
    body: { address: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7', label: '我的钱包', pay_password: PAY },
  })
  await openLoggedIn(page, '/cash', who)
  await page.getByRole('textbox', { name: '提现金额' }).fill('20')
  await page.getByRole('button', { name: '提现', exact: true }).click()
  await expect(page.getByRole('button', { name: '支付密码', exact: true })).toBeVisible()
  await typeOnKeyboard(page, PAY)
  const result = page.getByTestId('withdraw-result')
  await expect(result.locator('.wallet-status')).toHaveText('审核中')
  await expect(page.getByTestId('wallet-balance')).toHaveText('89.00USDT')
  const orderNo = (await page.getByTestId('withdraw-order-no').textContent()) ?? ''

  await emu().control(rejectWithdrawal, { params: { id: orderNo }, body: {} })
  // The player comes back to the tab.
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true })
    document.dispatchEvent(new Event('visibilitychange'))
    window.dispatchEvent(new Event('focus'))
  })
  await expect(result.locator('.wallet-status')).toHaveText('已退回')
  const server = await api(getBalance, { token: session.token, query: { player_id: session.player_id } })
  expect(server.balance).toBe('110.00')
  await expect(page.getByTestId('wallet-balance')).toHaveText('110.00USDT')
})
