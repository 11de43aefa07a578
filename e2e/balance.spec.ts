import { getBalance } from '@shared/contract/account'
import { placeBets } from '@shared/contract/games'
import { STORAGE_KEY } from '@shared/storage-keys'
import { api } from './support/api'
import { registerPlayer, topUp } from './support/emu'
import { expect, openLoggedIn, recordToasts, test, toastsSeen } from './support/test'

/**
 * The balance is never stale or false (docs/product.md#session-flows): a placeholder until it is
 * known, the stored session kept through a reload without the network, and every settlement
 * followed whatever page placed the bet.
 */

declare global {
  interface Window {
    __balances?: string[]
  }
}

/** Records every text the balance shows, so a value shown for a moment is not missed. */
async function recordBalances(page: import('@playwright/test').Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: string[] = []
    window.__balances = seen
    new MutationObserver(() => {
      for (const el of document.querySelectorAll('[data-testid="balance"]')) {
        const text = (el.textContent ?? '').trim()
        if (text && !seen.includes(text)) seen.push(text)
      }
    }).observe(document, { subtree: true, childList: true, characterData: true })
  })
}

test('a slow balance shows a placeholder, never 0.00, until the real one arrives', async ({
  page,
  scope,
}) => {
  const player = await registerPlayer()
  await topUp(player, '100', scope)
  await recordBalances(page)
  // The balance answer takes 2 s, as on a slow network.
  await page.route('**/api/api/getBalance*', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    await route.continue()
  })
  await openLoggedIn(page, '/home', player)
  const balance = page.getByTestId('balance')
  await expect(balance).toHaveText(/^--\s*USDT$/)
  await expect(balance).toHaveAttribute('aria-busy', 'true')
  await expect(balance).toHaveText(/^110\.00\s*USDT$/)
  const seen = await page.evaluate(() => window.__balances ?? [])
  expect(seen.some((t) => t.startsWith('--'))).toBe(true)
  expect(seen.filter((t) => /^0(\.00)?\s*USDT$/.test(t))).toEqual([])
})

test('a reload without the network keeps the player logged in, and the app recovers by itself when it returns', async ({
  page,
  context,
  scope,
}) => {
  test.setTimeout(45_000)
  const player = await registerPlayer()
  await topUp(player, '100', scope)
  await openLoggedIn(page, '/mine', player)
  await expect(page.getByTestId('balance')).toHaveText(/^110\.00\s*USDT$/)
  const name = (await page.locator('.mine-page__name').textContent()) ?? ''
  expect(name).not.toBe('未登录')

  // Every call fails as it does offline; the page itself still loads.
  await page.route('**/api/**', (route) => route.abort('internetdisconnected'))
  await page.reload()
  await expect(page.getByTestId('offline-banner')).toBeVisible()
  await expect(page.locator('.mine-page__name')).toHaveText(name)
  await expect(page.getByTestId('balance')).toHaveText(/^--\s*USDT$/)
  const stored = await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEY.userInfo)
  expect(stored).toContain(name)

  // The browser goes offline and back online, and the calls get through again.
  await context.setOffline(true)
  await page.unroute('**/api/**')
  await context.setOffline(false)
  await expect(page.getByTestId('balance')).toHaveText(/^110\.00\s*USDT$/, { timeout: 15_000 })
  await expect(page.getByTestId('offline-banner')).toBeHidden()
  await expect(page.locator('.mine-page__name')).toHaveText(name)
})

test('a win of a bet placed on a game page is announced with the fresh balance on the page the player went to', async ({
  page,
  scope,
}) => {
  test.setTimeout(60_000)
  const player = await registerPlayer()
  await topUp(player, '100', scope)
  await recordToasts(page)
  const session = await openLoggedIn(page, '/games/qukuai', player)
  await expect(page.getByTestId('balance').first()).toHaveText(/^110\.00\s*USDT$/)
  // Lucky and unlucky are not a pair: one of them wins.
  await page.locator('[data-bet-type="lucky"]').click()
  await page.locator('[data-bet-type="unlucky"]').click()
  await page.locator('.games-chip', { hasText: /^5$/ }).click()
  await page.getByTestId('bet-bar').getByRole('button', { name: '投注' }).click()
  const sheet = page.locator('.games-confirm')
  await sheet.getByRole('button', { name: '确认投注' }).click()
  await expect(page.getByTestId('balance').first()).toHaveText(/^100\.00\s*USDT$/)
  // Off to the bet history before the block is drawn.
  await expect(sheet).toBeHidden()
  await page.getByRole('link', { name: '我的投注' }).click()
  await expect(page).toHaveURL(/\/bethistory$/)
  await expect(
    page.locator('.adm-toast-main').filter({ hasText: /^恭喜中奖！\+\d+\.\d\d USDT$/ }),
  ).toBeVisible({
    timeout: 20_000,
  })
  const server = await api(getBalance, {
    token: session.token,
    scope,
    query: { player_id: session.player_id },
  })
  expect(Number(server.balance)).toBeGreaterThan(100)
  // Back to the game page without a reload: the balance it shows is the one the win brought.
  await page.goBack()
  await expect(page).toHaveURL(/\/games\/qukuai$/)
  await expect(page.getByTestId('balance').first()).toHaveText(
    new RegExp(`^${server.balance.replace('.', '\\.')}\\s*USDT$`),
  )
  expect((await toastsSeen(page)).filter((t) => t.startsWith('恭喜中奖'))).toHaveLength(1)
})

test('a bet placed on another device is found and followed to its settlement', async ({ page, scope }) => {
  test.setTimeout(60_000)
  const player = await registerPlayer()
  await topUp(player, '100', scope)
  await recordToasts(page)
  const session = await openLoggedIn(page, '/home', player)
  await expect(page.getByTestId('balance')).toHaveText(/^110\.00\s*USDT$/)
  // Not through this page: the server is the only one that knows.
  const { currentRound } = await import('@shared/contract/games')
  const round = await api(currentRound, { scope, query: { game: 'qukuai' } })
  await api(placeBets, {
    token: session.token,
    scope,
    body: {
      game: 'qukuai',
      round_id: round.next.round_id,
      bets: [
        { bet_type: 'lucky', amount: '5' },
        { bet_type: 'unlucky', amount: '5' },
      ],
    },
  })
  // Bringing the tab back into view asks for the pending bets.
  await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')))
  await expect(page.locator('.adm-toast-main').filter({ hasText: /^恭喜中奖！/ })).toBeVisible({
    timeout: 20_000,
  })
  const server = await api(getBalance, {
    token: session.token,
    scope,
    query: { player_id: session.player_id },
  })
  await expect(page.getByTestId('balance')).toHaveText(
    new RegExp(`^${server.balance.replace('.', '\\.')}\\s*USDT$`),
  )
})
