import { paths } from '@client/config/paths'
import type { Page } from '@playwright/test'
import { THEMES } from '@shared/constants'
import { registerPlayer, topUp } from './support/emu'
import { expect, openLoggedIn, switchTheme, test, testOnOnePageLoggedIn } from './support/test'

/**
 * Nothing on any page sticks out past the screen's edge, at the phone widths players use, in both
 * themes: an element counts as sticking out when the part of it a player could see (not clipped by
 * a scrolling or clipping ancestor) reaches past the left or right edge of the viewport. Each route
 * is loaded once into the worker's one page (see `testOnOnePage`), checked in the light theme,
 * switched to the dark one in place and checked again.
 */

const WIDTHS = [320, 360, 390, 414] as const
const HEIGHT = 800

/** Every route of the app, with its parameters filled in. */
const ROUTES: string[] = Object.values(paths)
  .filter((p) => p !== paths.root)
  .map((p) => {
    if (p === paths.gameResultsHistory || p === paths.gameRulesPage) return p.replace(':game', 'qukuai')
    return p
  })
  .concat([
    paths.gameRulesPage.replace(':game', 'saiche'),
    paths.gameResultsHistory.replace(':game', 'saiche'),
  ])

interface Overflow {
  what: string
  left: number
  right: number
}

/** Elements whose visible part reaches past the viewport's left or right edge. */
function overflowing(page: Page): Promise<Overflow[]> {
  return page.evaluate(() => {
    const vw = document.documentElement.clientWidth
    const out: { what: string; left: number; right: number }[] = []
    const describeEl = (el: Element) => {
      const cls =
        typeof el.className === 'string' ? el.className.trim().split(/\s+/).slice(0, 2).join('.') : ''
      const text = (el.textContent ?? '').trim().slice(0, 30)
      return `${el.tagName.toLowerCase()}${cls ? `.${cls}` : ''} "${text}"`
    }
    if (document.documentElement.scrollWidth > vw + 1)
      out.push({
        what: `page scrolls sideways (${document.documentElement.scrollWidth})`,
        left: 0,
        right: document.documentElement.scrollWidth,
      })
    for (const el of document.body.querySelectorAll('*')) {
      const style = getComputedStyle(el)
      if (style.display === 'none' || style.visibility === 'hidden') continue
      const rect = el.getBoundingClientRect()
      if (rect.width === 0 || rect.height === 0) continue
      let left = rect.left
      let right = rect.right
      // Clip by every ancestor that scrolls or clips sideways; a fixed element escapes its ancestors.
      if (style.position !== 'fixed') {
        for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
          const s = getComputedStyle(a)
          if (s.overflowX !== 'visible') {
            const r = a.getBoundingClientRect()
            left = Math.max(left, r.left)
            right = Math.min(right, r.right)
          }
          if (s.position === 'fixed') break
        }
      }
      if (right <= left) continue
      if (left < -1 || right > vw + 1)
        out.push({ what: describeEl(el), left: Math.round(left), right: Math.round(right) })
    }
    return out
  })
}

/** Checks the page at every width; the page is laid out again after each resize. */
async function expectFits(page: Page, label: string) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: HEIGHT })
    // Laid out at the new width (checked on every frame), then two frames for resize observers.
    await page.waitForFunction((w) => document.documentElement.clientWidth === w, width, { polling: 'raf' })
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
    expect(await overflowing(page), `${label} at ${width} px`).toEqual([])
  }
}

/**
 * A page that has fetched what it shows: its heading is laid out and no skeleton is left. Checked on
 * every frame, so the walk goes on as soon as the page is ready rather than at the next of expect's
 * widening retry intervals.
 */
async function settled(page: Page) {
  await page.waitForFunction(
    () => {
      const heading = document.querySelector('h1')
      return (
        heading !== null && heading.getClientRects().length > 0 && !document.querySelector('.adm-skeleton')
      )
    },
    undefined,
    { timeout: 10_000 },
  )
}

const testRoutes = testOnOnePageLoggedIn('new player')

for (const route of ROUTES) {
  testRoutes(`${route} is no wider than the screen, in either theme`, async ({ page }) => {
    await page.goto(route === paths.verify ? `${route}?game=qukuai&round=1` : route)
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light')
    await settled(page)
    await expectFits(page, `${route} (light)`)
    await switchTheme(page, 'dark')
    await expectFits(page, `${route} (dark)`)
  })
}

test('the bet confirmation sheet fits the screen in every betting game, in either theme', async ({
  page,
  scope,
}) => {
  test.setTimeout(120_000)
  const player = await registerPlayer()
  await topUp(player, '5000', scope)
  await openLoggedIn(page, paths.home, player)
  for (const route of [
    paths.gameBlock,
    paths.gameHashSize,
    paths.gameFastThree,
    paths.gameTimeColour,
    paths.gameRacing,
  ]) {
    await page.goto(route)
    await settled(page)
    // 5000 topped up and the first-deposit bonus (10%, at most 188).
    await expect(page.getByTestId('balance')).toHaveText(/5,?188/)
    // Picks that never oppose each other: the first bet type of up to three different groups.
    const groups = page.locator('.games-slip__group')
    const picks = Math.min(3, await groups.count())
    for (let i = 0; i < picks; i++) await groups.nth(i).locator('[data-bet-type]').first().click()
    await page.locator('.games-chip', { hasText: /^100$/ }).click()
    await page.getByRole('button', { name: /^投注/ }).click()
    const sheet = page.locator('.games-confirm')
    await expect(sheet).toBeVisible()
    // 确认投注, or 改投第 N 期 when the block game's round closed while the sheet opened.
    await expect(sheet.locator('.games-confirm__actions button').last()).toBeVisible()
    for (const theme of THEMES) {
      await switchTheme(page, theme)
      await expectFits(page, `confirmation sheet of ${route} (${theme})`)
    }
    await sheet.getByRole('button', { name: '取消' }).click()
    await expect(sheet).toBeHidden()
  }
})
