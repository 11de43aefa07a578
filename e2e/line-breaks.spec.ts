import { paths } from '@client/config/paths'
import type { Page } from '@playwright/test'
import type { Theme } from '@shared/constants'
import { STORAGE_KEY } from '@shared/storage-keys'
import { playerWithHistory } from './support/history'
import { expect, storeSessionOnLoad, switchTheme, testOnOnePage, waitForQuietNetwork } from './support/test'

/**
 * No text breaks inside a number, an amount, a date, a time or an address (docs/client.md#layout),
 * at 320 and 390 px, in both themes, on every route, for a player with a history of every kind.
 * Each such token of every visible text node is measured with Range.getClientRects: its boxes must
 * all sit on one line. An address inside `.addr-wrap` (a whole address, wrapped on purpose in
 * monospace) is the one exception.
 */

const WIDTHS = [320, 390] as const

const test = testOnOnePage.extend<object, { player: true }>({
  player: [
    async ({ workerPage }, use) => {
      await storeSessionOnLoad(workerPage, await playerWithHistory())
      await workerPage.addInitScript(({ key, value }) => localStorage.setItem(key, value), {
        key: STORAGE_KEY.theme,
        value: 'light' satisfies Theme,
      })
      await use(true)
    },
    { scope: 'worker', auto: true },
  ],
})

const ROUTES = Object.values(paths)
  .filter((path) => path !== paths.root)
  .map((path) => {
    if (path === paths.activityDetail) return `${path}?id=1`
    if (path === paths.verify) return `${path}?game=qukuai&round=1`
    return path.replace(':game', 'saiche')
  })
  .concat([
    paths.gameRulesPage.replace(':game', 'kuaisan'),
    paths.gameResultsHistory.replace(':game', 'kuaisan'),
  ])

/** Tokens of visible text that occupy more than one line, with where they are. */
function brokenTokens(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const TOKEN = new RegExp(
      [
        // A date, with its time.
        String.raw`\d{4}-\d{2}-\d{2}(?:[ \u00a0]\d{2}:\d{2}(?::\d{2})?)?`,
        String.raw`\b\d{2}-\d{2}[ \u00a0]\d{2}:\d{2}`,
        // A time of day.
        String.raw`\b\d{1,2}:\d{2}(?::\d{2})?`,
        // A TRON address, a hash.
        String.raw`\bT[1-9A-HJ-NP-Za-km-z]{33}\b`,
        String.raw`\b[0-9a-f]{16,}\b`,
        // A figure with its unit.
        String.raw`[+-]?\d[\d,]*(?:\.\d+)?%?(?: ?(?:USDT|TRX|分钟|小时|秒|天))?`,
      ].join('|'),
      'g',
    )
    const found: string[] = []
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? ''
      const parent = node.parentElement
      if (!parent || !/\d/.test(text)) continue
      if (parent.closest('.addr-wrap, script, style, svg, [aria-hidden="true"]')) continue
      if (!parent.checkVisibility({ visibilityProperty: true })) continue
      for (const match of text.matchAll(TOKEN)) {
        if (match[0].length < 2) continue
        const range = document.createRange()
        range.setStart(node, match.index)
        range.setEnd(node, match.index + match[0].length)
        const tops = new Set<number>()
        for (const rect of range.getClientRects()) if (rect.width > 0) tops.add(Math.round(rect.top))
        if (tops.size > 1) {
          const where = parent.closest('[data-testid]')?.getAttribute('data-testid') ?? parent.className
          found.push(`"${match[0]}" in "${text.trim().slice(0, 60)}" (${where})`)
        }
      }
    }
    return found
  })
}

async function expectNoBrokenTokens(page: Page, label: string) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 })
    await page.waitForFunction((w) => document.documentElement.clientWidth === w, width, { polling: 'raf' })
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
    expect(await brokenTokens(page), `${label} at ${width} px`).toEqual([])
  }
}

for (const route of ROUTES) {
  test(`${route} breaks no number, date or address across lines, in either theme`, async ({ page }) => {
    await page.goto(route)
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()
    await waitForQuietNetwork(page)
    await expectNoBrokenTokens(page, `${route} (light)`)
    await switchTheme(page, 'dark')
    await expectNoBrokenTokens(page, `${route} (dark)`)
  })
}
