import { paths } from '@client/config/paths'
import type { Page } from '@playwright/test'
import { STORAGE_KEY } from '@shared/storage-keys'
import { playerWithHistory } from './support/history'
import { expect, storeSessionOnLoad, testOnOnePage, waitForQuietNetwork } from './support/test'

/**
 * With hide-amount on, no page shows an amount of the player's money (docs/client.md#amounts): every
 * route is opened by a player with a history of every kind (a top-up with its first-deposit bonus,
 * an exchange, a bet, limits of 游戏限制), and no text on it holds a decimal figure, except figures of
 * the product marked `data-public-figure` (odds, limits, rates, rule tables) and percentages.
 */

const test = testOnOnePage.extend<object, { player: true }>({
  player: [
    async ({ workerPage }, use) => {
      await storeSessionOnLoad(workerPage, await playerWithHistory())
      await workerPage.addInitScript((key) => localStorage.setItem(key, '1'), STORAGE_KEY.hideAmount)
      await use(true)
    },
    { scope: 'worker', auto: true },
  ],
})

const routes = Object.values(paths)
  .filter((path) => path !== paths.root)
  .map((path) => {
    if (path === paths.activityDetail) return `${path}?id=1`
    return path.replace(':game', 'kuaisan')
  })

/** Decimal figures in the page's visible text outside `[data-public-figure]`, with their line. */
function visibleAmounts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = []
    const amount = /(?<![\d.])[+-]?\d[\d,]*\.\d{2,}(?![\d.]*\s*%)/
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? ''
      const parent = node.parentElement
      if (!parent || !amount.test(text)) continue
      if (parent.closest('[data-public-figure], script, style, noscript')) continue
      if (!parent.checkVisibility({ visibilityProperty: true, opacityProperty: false })) continue
      found.push(
        `${text.trim()}  (in ${(parent.closest('[data-testid]') as HTMLElement | null)?.dataset.testid ?? parent.className})`,
      )
    }
    return found
  })
}

for (const route of routes) {
  test(`${route} shows no amount of the player's with hide-amount on`, async ({ page }) => {
    await page.goto(route)
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()
    await waitForQuietNetwork(page)
    expect(await visibleAmounts(page)).toEqual([])
  })
}

test('the bet confirmation sheet shows the stake and the possible win while amounts are hidden', async ({
  page,
}) => {
  await page.goto(paths.gameFastThree)
  await page.locator('[data-bet-type="big"]').click()
  await page.getByRole('textbox', { name: '每注金额' }).fill('2.5')
  await page.getByRole('button', { name: '投注', exact: true }).click()
  const sheet = page.locator('.games-confirm')
  await expect(sheet).toContainText('每注 2.50')
  await expect(sheet).toContainText('合计 2.50USDT')
  await expect(sheet).toContainText(/可赢 \d+\.\d{2}/)
  // Outside the sheet, the balance stays hidden.
  await expect(page.getByTestId('balance').first()).toHaveText('****USDT')
})
