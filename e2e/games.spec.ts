import type { Page } from '@playwright/test'
import {
  betHistory,
  currentRound,
  gameCommitment,
  gameResults,
  gameRules,
  placeBets,
} from '@shared/contract/games'
import { STORAGE_KEY } from '@shared/storage-keys'
import { tronAddressFromAccountId } from '@shared/tron'
import { api } from './support/api'
import { emu, registerPlayer, topUp } from './support/emu'
import { expect, openLoggedIn, test } from './support/test'

/** The world clock: draws follow it, so it is moved without a scope (on this spec's own server). */
const advanceWorldClock = (ms: number) => emu().advanceClock(ms)

const GAME = 'kuaisan'

/** Stake × odds for a stake of 10, cut to cents as the app shows it. */
const winOf10 = (odds: string) => (Math.round(Number(odds) * 1000) / 100).toFixed(2)

test('the commitment is held before playing, a round is played and settled, and verify checks every step against the held commitment', async ({
  page,
  scope,
}) => {
  test.setTimeout(90_000)
  const player = await registerPlayer()
  await topUp(player, '100', scope)
  const commitment = await api(gameCommitment, { scope })
  const rules = await api(gameRules, { scope, query: { game: GAME } })
  const bigOdds = rules.bet_types.find((t) => t.bet_type === 'big')?.odds ?? ''
  expect(bigOdds).toMatch(/^\d+(\.\d+)?$/)
  // This spec has a server of its own (the world-clock project), shared only with its own tests,
  // which wait for real draws too: the clock only moves forward. A round with < 20 s left is skipped.
  let round = await api(currentRound, { scope, query: { game: GAME } })
  if (round.ms_to_seal < 20_000) {
    await advanceWorldClock(round.ms_to_draw + 1_000)
    round = await api(currentRound, { scope, query: { game: GAME } })
  }

  // The page's clock moves with the world clock below, as a phone's does with the server's.
  await page.clock.install()
  await openLoggedIn(page, `/games/${GAME}`, player)
  await expect(page.getByTestId('round-id')).toHaveText(round.round_id)
  await expect(page.getByTestId('round-state')).toHaveText('投注中')
  // 100 topped up and the 10% first-deposit bonus.
  await expect(page.getByTestId('balance')).toHaveText(/^110\.00\s*USDT$/)

  // The commitment, shortened, with the time it was published, and held on this device.
  const panel = page.getByTestId('commitment')
  await expect(panel).toHaveAttribute('data-hash', commitment.terminal_hash)
  await expect(panel.getByTestId('commitment-hash')).toHaveText(
    `${commitment.terminal_hash.slice(0, 10)}...${commitment.terminal_hash.slice(-8)}`,
  )
  await expect(panel.getByTestId('commitment-published')).toHaveAttribute(
    'datetime',
    new Date(commitment.created_at).toISOString(),
  )
  await expect(panel.getByTestId('commitment-published')).toHaveText(/\d/)
  await expect(panel.getByRole('button', { name: '复制承诺哈希' })).toBeVisible()
  await expect(page.getByTestId('commitment-changed')).toHaveCount(0)
  const held = await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEY.gameCommitments)
  expect(held).toContain(commitment.terminal_hash)

  // Odds on the buttons come from the rules endpoint; picking 大 greys out 小.
  await expect(page.locator('[data-bet-type="big"] small')).toHaveText(bigOdds)
  await page.locator('[data-bet-type="big"]').click()
  await expect(page.locator('[data-bet-type="small"]')).toBeDisabled()
  await expect(page.locator('[data-bet-type="odd"]')).toBeEnabled()
  await page.locator('.games-chip', { hasText: /^10$/ }).click()
  const bar = page.getByTestId('bet-bar')
  await expect(bar.getByTestId('bar-count')).toHaveText('1')
  await expect(bar.getByTestId('bar-total')).toHaveText('10.00')
  await expect(bar).toContainText(`投注进入第 ${round.round_id} 期`)
  await bar.getByRole('button', { name: '投注' }).click()
  const sheet = page.locator('.games-confirm')
  await expect(sheet.getByTestId('confirm-round')).toHaveText(`确认投注 · 第 ${round.round_id} 期`)
  await expect(sheet).toContainText(`赔率 ${bigOdds}可赢 ${winOf10(bigOdds)}`)
  await sheet.getByRole('button', { name: '确认投注' }).click()
  await expect(page.getByTestId('balance').first()).toHaveText(/^100\.00\s*USDT$/)
  await expect(page.getByTestId('my-bet-status')).toHaveText('待开奖')

  // Past the draw: the page finds the result by itself, in the round panel and the results strip.
  await advanceWorldClock(round.ms_to_draw + 500)
  await page.clock.fastForward(round.ms_to_draw + 500)
  const draws = await api(gameResults, { scope, query: { game: GAME, page_size: 20 } })
  const draw = draws.list.find((d) => d.round_id === round.round_id)
  expect(draw, 'the round was drawn').toBeTruthy()
  const numbers = draw?.numbers ?? []
  const sum = numbers.reduce((a, b) => a + b, 0)
  const won = sum >= 11

  const previous = page.getByTestId('previous-draw')
  await expect(previous).toHaveAttribute('data-round-id', round.round_id, { timeout: 15_000 })
  for (const [i, n] of numbers.entries())
    await expect(previous.getByRole('img', { name: `骰${'一二三'[i]} ${n}` })).toBeVisible()
  await expect(previous.getByTestId('draw-labels')).toHaveText(
    `${won ? '大' : '小'}${sum % 2 === 1 ? '单' : '双'}`,
  )
  await expect(page.locator(`[data-testid="strip-draw"][data-round-id="${round.round_id}"]`)).toBeVisible()
  await expect(page.getByTestId('my-bet-status')).toHaveText(won ? `已中奖 +${winOf10(bigOdds)}` : '未中奖')
  // The bet shows what its round drew, here and in the bet history.
  for (const [i, n] of numbers.entries())
    await expect(
      page.getByTestId('my-bet-result').getByRole('img', { name: `骰${'一二三'[i]} ${n}` }),
    ).toBeVisible()

  await page.goto('/bethistory')
  const row = page.getByTestId('bet-row').first()
  await expect(row).toContainText(`第 ${round.round_id} 期`)
  await expect(row).toContainText(won ? '已中奖' : '未中奖')
  await expect(row.getByTestId('bet-result').getByTestId('draw-labels')).toHaveText(
    `${won ? '大' : '小'}${sum % 2 === 1 ? '单' : '双'}`,
  )
  await row.getByRole('link', { name: '验证结果' }).click()

  // Every step passes: the chain against the held commitment, the block hash, the numbers, the labels.
  await expect(page).toHaveURL(new RegExp(`/verify\\?game=${GAME}&round=${round.round_id}$`))
  const summary = page.getByTestId('verify-summary')
  await expect(summary).toHaveText('验证通过：浏览器计算结果与服务器一致', { timeout: 15_000 })
  const steps = page.getByTestId('verify-step')
  const kinds = await steps.evaluateAll((els) => els.map((el) => el.getAttribute('data-kind')))
  expect(new Set(kinds)).toEqual(
    new Set(['round', 'chain', 'block-hash', 'floats', 'numbers', 'labels', 'bets']),
  )
  expect(await steps.evaluateAll((els) => els.map((el) => el.getAttribute('data-ok')))).toEqual(
    kinds.map(() => 'true'),
  )
  await expect(page.getByTestId('held-commitment')).toHaveText(commitment.terminal_hash)
  await expect(page.getByTestId('verify-recomputed')).toHaveText(
    `浏览器计算的开奖号码：${numbers.join(', ')}`,
  )
  await expect(page.getByTestId('commitment-changed')).toHaveCount(0)

  // The stored commitment is swapped: the server no longer matches what the player holds.
  await page.evaluate((key) => {
    const stored = JSON.parse(localStorage.getItem(key) ?? '{}') as Record<string, { terminal_hash: string }>
    for (const c of Object.values(stored)) c.terminal_hash = 'ab'.repeat(32)
    localStorage.setItem(key, JSON.stringify(stored))
  }, STORAGE_KEY.gameCommitments)
  await page.reload()
  const warning = page.getByTestId('commitment-changed')
  await expect(warning).toBeVisible()
  await expect(warning).toContainText('警告：服务器的承诺已改变')
  await expect(warning).toHaveCSS('border-top-color', 'rgb(207, 37, 51)')
  await expect(summary).toContainText('验证失败')
  await expect(page.locator('[data-testid="verify-step"][data-kind="chain"]').last()).toHaveAttribute(
    'data-ok',
    'false',
  )
  await page.goto(`/games/${GAME}`)
  await expect(page.getByTestId('commitment-changed')).toBeVisible()
  await expect(page.getByTestId('commitment')).toHaveAttribute('data-hash', 'ab'.repeat(32))
})

test('the block game sends nothing when its round closes under the sheet and asks again for the next', async ({
  page,
  scope,
}) => {
  test.setTimeout(60_000)
  const player = await registerPlayer()
  await topUp(player, '100', scope)
  const session = await openLoggedIn(page, '/games/qukuai', player)
  await expect(page.getByTestId('balance').first()).toHaveText(/^110\.00\s*USDT$/)
  await page.locator('[data-bet-type="odd"]').click()
  await expect(page.locator('[data-bet-type="even"]')).toBeDisabled()
  await page.locator('.games-chip', { hasText: /^5$/ }).click()
  await page.getByTestId('bet-bar').getByRole('button', { name: '投注' }).click()
  const sheet = page.locator('.games-confirm')
  const heading = sheet.getByTestId('confirm-round')
  await expect(heading).toHaveText(/^确认投注 · 第 \d+ 期$/)
  const first = (await heading.textContent())?.match(/\d+/)?.[0] ?? ''

  // A block round is open for two seconds: the sheet is left open until it closes.
  const moved = sheet.getByTestId('round-moved')
  await expect(moved).toBeVisible({ timeout: 10_000 })
  await expect(moved).toContainText(`第 ${first} 期已封盘`)
  const again = sheet.getByRole('button', { name: /^改投第 \d+ 期$/ })
  await expect(again).toBeVisible()
  const next = (await again.textContent())?.match(/\d+/)?.[0] ?? ''
  expect(BigInt(next)).toBeGreaterThan(BigInt(first))
  // Nothing was sent.
  const bets = await api(betHistory, {
    token: session.token,
    scope,
    query: { game: 'qukuai', page: 1, page_size: 10 },
  })
  expect(bets.list).toEqual([])
  await expect(page.getByTestId('balance').first()).toHaveText(/^110\.00\s*USDT$/)

  // Agreeing moves the sheet to a round that is open now; only then does 确认投注 come back.
  await again.click()
  await expect(heading).not.toHaveText(`确认投注 · 第 ${first} 期`)
  await sheet.getByRole('button', { name: '取消' }).click()
  await expect(sheet).toBeHidden()
})

test('the bet bar stays on screen with both countdowns while the longest game page scrolls', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto('/games/saiche')
  const bar = page.getByTestId('bet-bar')
  await expect(bar.getByTestId('bar-to-seal')).toHaveText(/^\d\d:\d\d$/)
  await expect(bar.getByTestId('bar-to-draw')).toHaveText(/^\d\d:\d\d$/)
  const height = await page.evaluate(() => document.documentElement.scrollHeight)
  expect(height).toBeGreaterThan(2_000)
  for (const y of [0, 1_500, height]) {
    await page.evaluate((top) => window.scrollTo(0, top), y)
    await expect
      .poll(async () => {
        const box = await bar.boundingBox()
        return box ? Math.round(box.y + box.height) : -1
      })
      .toBe(844)
    await expect(bar.getByRole('button', { name: '投注' })).toBeInViewport()
  }
  await page.locator('[data-bet-type="p1_big"]').click()
  await page.locator('[data-bet-type="p2_c3"]').click()
  await page.locator('.games-chip', { hasText: /^50$/ }).click()
  await expect(bar.getByTestId('bar-count')).toHaveText('2')
  await expect(bar.getByTestId('bar-total')).toHaveText('100.00')
  await expect(page.locator('[data-bet-type="p1_small"]')).toBeDisabled()
  await expect(page.locator('[data-bet-type="p2_small"]')).toBeEnabled()
})

/** Visible buttons, links and inputs of the page body and the nav bar's links smaller than 44 × 44. */
function smallControls(page: Page) {
  return page
    .locator('.page-shell__body :is(button, a, input, [role="tab"], .adm-selector-item), .games-nav-links a')
    .evaluateAll((els) =>
      els
        .filter((el) => el.getClientRects().length > 0)
        .map((el) => {
          const target = el.tagName === 'INPUT' ? (el.closest('.adm-input') ?? el) : el
          const r = target.getBoundingClientRect()
          const what = `${el.tagName} ${(el.textContent ?? '').trim().slice(0, 12)}`
          return { what, w: Math.round(r.width), h: Math.round(r.height) }
        })
        .filter((b) => b.w < 44 || b.h < 44),
    )
}

test('every control on the game pages is at least 44 × 44 px', async ({ page }) => {
  test.setTimeout(90_000)
  await page.setViewportSize({ width: 320, height: 700 })
  for (const game of ['qukuai', 'hassize', 'kuaisan', 'shishicai', 'saiche']) {
    await page.goto(`/games/${game}`)
    await expect(page.locator('[data-bet-type]').first()).toBeVisible()
    await expect(page.getByTestId('commitment')).toBeVisible()
    // The block game draws every few seconds: its list has 验证 links to measure.
    if (game === 'qukuai')
      await expect(page.getByTestId('latest-results').locator('a').first()).toBeVisible({ timeout: 15_000 })
    expect(await smallControls(page), `controls smaller than 44 px on ${game}`).toEqual([])
  }
  // Each page with what it shows once loaded.
  const pages: [string, string][] = [
    ['/games/zoushi', '[role="tab"]'],
    ['/games/qukuai/history', '.page-shell__body a'],
    ['/games/kuaisan/rules', '[data-testid="rule-row"]'],
  ]
  for (const [path, loaded] of pages) {
    await page.goto(path)
    await expect(page.locator(loaded).first()).toBeVisible({ timeout: 15_000 })
    expect(await smallControls(page), `controls smaller than 44 px on ${path}`).toEqual([])
  }
})

test('the trend grids open on their newest column', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 700 })
  // 120 alternating results: every result starts a new big-road column, so the road is far wider than the screen.
  const list = Array.from({ length: 120 }, (_, i) => ({
    game: 'qukuai',
    round_id: String(1_000_000 - i),
    height: 1_000_000 - i,
    block_hash: '0'.repeat(64),
    draw_at: 1_700_000_000_000 - i * 3_000,
    numbers: [i % 2 === 0 ? 7 : 2, 1, 2],
    labels: {
      big_small: i % 2 === 0 ? 'big' : 'small',
      odd_even: 'odd',
      lucky: 'lucky',
      banker_player: 'player',
    },
  }))
  await page.route('**/api/games/results?*', (route) =>
    route.fulfill({
      json: { code: 1, msg: '成功', data: { list, page: 1, page_size: 100, total: 120, has_more: true } },
    }),
  )
  await page.goto('/games/zoushi')
  for (const id of ['big-road', 'bead-plate']) {
    const grid = page.getByTestId(id)
    await expect(grid.locator('.games-grid__col').first()).toBeVisible()
    await expect
      .poll(() =>
        grid.evaluate((el) => {
          // The newest column is the last one with a result in it.
          const filled = [...el.querySelectorAll('.games-grid__col')].filter(
            (col) => col.querySelector('[class*="games-grid__cell--"]') !== null,
          )
          const newest = filled[filled.length - 1]
          if (!newest) return 'no column'
          const g = el.getBoundingClientRect()
          const c = newest.getBoundingClientRect()
          return c.left >= g.left && c.right <= g.right
            ? 'in view'
            : `${c.left}–${c.right} outside ${g.left}–${g.right}`
        }),
      )
      .toBe('in view')
  }
  const road = page.getByTestId('big-road')
  expect(await road.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0)
})

test('pulling down the bet history shows a bet placed since it opened', async ({ page, scope }) => {
  test.setTimeout(60_000)
  const player = await registerPlayer()
  await topUp(player, '100', scope)
  const session = await openLoggedIn(page, '/bethistory', player)
  await expect(page.getByText('暂无投注记录')).toBeVisible()
  const round = await api(currentRound, { scope, query: { game: 'hassize' } })
  const target = round.ms_to_seal > 2_000 ? round.round_id : round.next.round_id
  await api(placeBets, {
    token: session.token,
    scope,
    body: { game: 'hassize', round_id: target, bets: [{ bet_type: 'big', amount: '3' }] },
  })
  await expect(page.getByTestId('bet-row')).toHaveCount(0)

  // A finger drags the list down from its empty state and lets go.
  const start = await page.getByText('暂无投注记录').boundingBox()
  const x = Math.round((start?.x ?? 0) + 10)
  const top = Math.round(start?.y ?? 0)
  const cdp = await page.context().newCDPSession(page)
  const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', y?: number) =>
    cdp.send('Input.dispatchTouchEvent', { type, touchPoints: y === undefined ? [] : [{ x, y }] })
  await touch('touchStart', top)
  for (let y = top + 10; y <= top + 300; y += 15) await touch('touchMove', y)
  await touch('touchEnd')
  await expect(page.getByTestId('bet-row')).toHaveCount(1)
  await expect(page.getByTestId('bet-row')).toContainText(`第 ${target} 期`)
})

test('the rules page shows each bet type with the odds, win chance and edge the server computed', async ({
  page,
  scope,
}) => {
  const pct = (x: number) => `${(x * 100).toFixed(2)}%`
  for (const game of ['qukuai', 'saiche'] as const) {
    const rules = await api(gameRules, { scope, query: { game } })
    await page.goto(`/games/${game}/rules`)
    const rows = page.getByTestId('rule-row')
    await expect(rows).toHaveCount(rules.bet_types.length)
    const shown = new Map(
      await rows.evaluateAll((els) =>
        els.map((el) => [el.getAttribute('data-bet-type') ?? '', el.textContent ?? ''] as const),
      ),
    )
    for (const t of rules.bet_types) {
      const text = shown.get(t.bet_type) ?? ''
      expect(text, t.bet_type).toContain(`赔率 ${t.odds}`)
      expect(text, t.bet_type).toContain(`中奖概率 ${pct(t.win_probability)}`)
      expect(text, t.bet_type).toContain(`庄家优势 ${pct(t.house_edge)}`)
      if (t.refund_probability > 0)
        expect(text, t.bet_type).toContain(`退款概率 ${pct(t.refund_probability)}`)
    }
    const first = rules.bet_types[0]
    await expect(page.getByTestId('odds-example')).toContainText(`按赔率 ${first?.odds} 中奖`)
  }
})

test('binds a bet address and sends a transfer bet that is settled at its block', async ({ page, scope }) => {
  test.setTimeout(60_000)
  const player = await registerPlayer()
  await topUp(player, '100', scope)
  await openLoggedIn(page, '/bet-address', player)
  await page.getByRole('button', { name: '绑定新地址' }).click()
  // An address of its own: a bet address is bound to one player only, and a retry or a repeat of
  // this test registers another player on the same server.
  const address = tronAddressFromAccountId(crypto.getRandomValues(new Uint8Array(20)))
  await page.getByPlaceholder('TRON 地址（T 开头）').fill(address)
  await page.getByPlaceholder('选填，最多20个字符').fill('测试钱包')
  await page.getByRole('button', { name: '保存' }).click()
  const bound = page.getByTestId('bet-addresses')
  await expect(bound).toContainText('测试钱包')

  await page.goto('/test-bet')
  // The first receiving address plays big/small: a units digit of 5 is "big".
  await page.getByPlaceholder('转账金额（个位数决定投注项）').fill('15')
  await page.getByRole('button', { name: '发送转账投注' }).click()
  const result = page.getByTestId('transfer-result')
  await expect(result).toContainText('转账 15.00 USDT')
  await expect(result).toContainText('大')

  await advanceWorldClock(10_000)
  await expect(result).toContainText(/已中奖|未中奖/, { timeout: 15_000 })
})
