import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { paths } from '@client/config/paths'
import type { Page } from '@playwright/test'
import { expect, switchTheme, testOnOnePageLoggedIn, waitForQuietNetwork } from './support/test'

/**
 * An axe-core scan of every route, logged in, in the light and the dark theme: no serious or
 * critical violation, with no exception. Routes with a parameter are opened with a real one.
 * Each route is loaded once, already logged in (one login per worker, into the worker's one page:
 * see `testOnOnePage`): scanned in the light theme, switched to the dark one in place the way
 * another tab would switch it (the stored theme and a `storage` event), and scanned again.
 *
 * axe-core is loaded into the page once and run there twice. (@axe-core/playwright's AxeBuilder
 * loads it again for every scan and finishes each scan in a page of its own: 0.5–1 s a scan here,
 * against 0.05–0.17 s.)
 */

const test = testOnOnePageLoggedIn('demo')

const GAME = 'kuaisan'

const routes = Object.values(paths)
  .filter((path) => path !== paths.root)
  .map((path) => {
    if (path === paths.activityDetail) return `${path}?id=1`
    return path.replace(':game', GAME)
  })

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']

/** Loads axe-core into every frame of the page, where it stays until the page is navigated away. */
async function loadAxe(page: Page) {
  for (const frame of page.frames()) await frame.evaluate(AXE_SOURCE)
}

/** The scan: WCAG 2.x A and AA rules and axe's best practices, serious and critical findings only. */
async function seriousViolations(page: Page) {
  const results = await page.evaluate(
    (tags) =>
      (window as unknown as { axe: typeof import('axe-core') }).axe.run(document, {
        runOnly: { type: 'tag', values: tags },
        resultTypes: ['violations'],
      }),
    TAGS,
  )
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      rule: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }))
}

for (const route of routes) {
  test(`${route} has no serious or critical accessibility violations in either theme`, async ({ page }) => {
    await page.goto(route)
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light')
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()
    await waitForQuietNetwork(page)
    await loadAxe(page)
    const light = await seriousViolations(page)
    await switchTheme(page, 'dark')
    const dark = await seriousViolations(page)
    expect({ light, dark }).toEqual({ light: [], dark: [] })
  })
}
