import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { paths } from '../client/src/config/paths'
import type { Theme } from '../shared/constants'
import { STORAGE_KEY } from '../shared/storage-keys'
import { expect, openLoggedIn, test } from './support/test'

/**
 * An axe-core scan of every route, logged in, in the light and the dark theme: no serious or
 * critical violation. Routes with a parameter are opened with a real one.
 */

const GAME = 'kuaisan'

const routes = Object.values(paths)
  .filter((path) => path !== paths.root)
  .map((path) => {
    if (path === paths.activityDetail) return `${path}?id=1`
    return path.replace(':game', GAME)
  })

/**
 * Findings still open, each with where it comes from. A node that matches one of these (rule,
 * target, and route when given) is left out; anything else fails the test.
 */
const KNOWN: { rule: string; target: RegExp; route?: RegExp; why: string }[] = [
  {
    rule: 'color-contrast',
    target: /games-|adm-list-item-description/,
    route: /^\/(games|verify)/,
    why: 'game pages: colours of balls, awards and round states, in the game pages being reworked',
  },
  { rule: 'color-contrast', target: /games-count/, why: 'trend page counters, a game page' },
  { rule: 'color-contrast', target: /adm-notice-bar/, why: "antd-mobile NoticeBar's default colours" },
  { rule: 'color-contrast', target: /adm-tag/, why: "antd-mobile Tag's white text on its status colours" },
  {
    rule: 'color-contrast',
    target: /adm-button/,
    route: /^\/(mine|invite-friends)/,
    why: 'danger and success buttons',
  },
  {
    rule: 'color-contrast',
    target: /wallet-meta/,
    route: /^\/finance/,
    why: 'secondary text of ledger rows',
  },
  { rule: 'color-contrast', target: /^a$/, route: /^\/verify/, why: 'verify page link, a game page' },
  {
    rule: 'aria-required-children',
    target: /adm-segmented/,
    why: 'antd-mobile Segmented: listbox of radios',
  },
  {
    rule: 'aria-hidden-focus',
    target: /adm-passcode-input/,
    why: 'antd-mobile PasscodeInput hidden native input',
  },
  { rule: 'nested-interactive', target: /adm-passcode-input/, why: 'antd-mobile PasscodeInput' },
  {
    rule: 'label-content-name-mismatch',
    target: /adm-button/,
    route: /^\/performance-record/,
    why: 'date-range button whose aria-label differs from its text',
  },
]

const known = (rule: string, target: string, route: string) =>
  KNOWN.some((k) => k.rule === rule && k.target.test(target) && (!k.route || k.route.test(route)))

/** The scan: WCAG 2.x A and AA rules and axe's best practices, serious and critical findings only. */
async function seriousViolations(page: Page, route: string) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze()
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      rule: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')).filter((t) => !known(v.id, t, route)),
    }))
    .filter((v) => v.targets.length > 0)
}

for (const theme of ['light', 'dark'] satisfies Theme[]) {
  test.describe(`${theme} theme`, () => {
    for (const route of routes) {
      test(`${route} has no serious or critical accessibility violations`, async ({ page }) => {
        await page.addInitScript(({ key, value }) => localStorage.setItem(key, value), {
          key: STORAGE_KEY.theme,
          value: theme,
        })
        await openLoggedIn(page, route)
        await expect(page.locator('html')).toHaveAttribute('data-theme', theme)
        await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()
        await page.waitForLoadState('networkidle')
        expect(await seriousViolations(page, route)).toEqual([])
      })
    }
  })
}
