import { test as base, expect, type Page, type Request } from '@playwright/test'
import { REQUEST_TIMEOUT_MS, type Theme } from '@shared/constants'
import { realityCheck } from '@shared/contract/protection'
import { stream } from '@shared/contract/stream'
import { STORAGE_KEY } from '@shared/storage-keys'
import { baseUrl, clearFaults, type LoginResult, login, registerPlayer, scopeHeader } from './emu'

/** Each page's requests still waiting for their answer, but the push channel's (open for good). */
const inFlight = new WeakMap<Page, Set<Request>>()

function trackRequests(page: Page): void {
  if (inFlight.has(page)) return
  const open = new Set<Request>()
  inFlight.set(page, open)
  page.on('request', (req) => {
    if (new URL(req.url()).pathname !== stream.path) open.add(req)
  })
  const done = (req: Request) => open.delete(req)
  page.on('requestfinished', done)
  page.on('requestfailed', done)
}

/**
 * Waits until the page has had no request in flight for 500 ms, as Playwright's `networkidle` does,
 * but for the push channel's stream, which stays open while the app is logged in and visible.
 */
export async function waitForQuietNetwork(page: Page): Promise<void> {
  const open = inFlight.get(page)
  if (!open) throw new Error('waitForQuietNetwork: this page is not one of the fixtures’ pages')
  let quietSince = Date.now()
  await expect
    .poll(
      () => {
        if (open.size > 0) quietSince = Date.now()
        return Date.now() - quietSince >= 500
      },
      { intervals: [100], timeout: 20_000, message: 'no request in flight for 500 ms' },
    )
    .toBe(true)
}

/**
 * Each test gets its own x-emu-scope: the page sends it on every request, and the test's fault
 * rules carry it, so rules never reach another test's requests. They are removed afterwards.
 * Uncaught page errors are collected and fail the test.
 */
export const test = base.extend<{ scope: string; pageErrors: string[] }, { server: string }>({
  // A worker runs one project's tests only: the world-clock project's talk to their own server.
  server: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use, workerInfo) => {
      if (workerInfo.project.name === 'world-clock') {
        process.env.E2E_BASE_URL = process.env.E2E_WORLD_CLOCK_URL
      }
      await use(baseUrl())
    },
    { scope: 'worker', auto: true },
  ],
  baseURL: async ({ server }, use) => use(server),
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  scope: async ({}, use, testInfo) => {
    const scope = `e2e-${testInfo.workerIndex}-${testInfo.testId}-${testInfo.retry}`
    await use(scope)
    await clearFaults(scope)
  },
  extraHTTPHeaders: async ({ scope }, use) => use(scopeHeader(scope)),
  page: async ({ page }, use) => {
    trackRequests(page)
    await use(page)
  },
  pageErrors: async ({ page }, use) => {
    const errors: string[] = []
    const onError = (err: Error) => errors.push(err.stack ?? err.message)
    page.on('pageerror', onError)
    await use(errors)
    page.off('pageerror', onError)
    expect(errors, 'uncaught errors in the page').toEqual([])
  },
})

export { expect }

/**
 * For specs whose tests each load one route and only read it (every route renders, the
 * accessibility scans, the overflow walk): the worker keeps one page open, and each test loads its
 * route into that page, with the page's localStorage and sessionStorage emptied first. A load into
 * a page that is already open keeps its renderer process and the app's compiled code; a new
 * context's first load starts both afresh.
 *
 * The page has the project's viewport, device and locale and no scope header: tests on it add no
 * fault rules. Init scripts a spec adds to it stay for the worker. After a failed test Playwright
 * starts a new worker, so nothing a failure leaves behind reaches the next test.
 */
export const testOnOnePage = test.extend<object, { workerPage: Page }>({
  workerPage: [
    async ({ browser, server }, use, workerInfo) => {
      const { viewport, deviceScaleFactor, isMobile, hasTouch, locale, serviceWorkers } =
        workerInfo.project.use
      const context = await browser.newContext({
        viewport,
        deviceScaleFactor,
        isMobile,
        hasTouch,
        locale,
        serviceWorkers,
        baseURL: server,
      })
      const page = await context.newPage()
      trackRequests(page)
      await use(page)
      await context.close()
    },
    { scope: 'worker' },
  ],
  page: async ({ workerPage }, use, testInfo) => {
    if (workerPage.url().startsWith('http')) {
      await workerPage.evaluate(() => {
        localStorage.clear()
        sessionStorage.clear()
      })
    }
    const { viewport } = testInfo.project.use
    if (viewport) await workerPage.setViewportSize(viewport)
    await use(workerPage)
  },
})

/**
 * `testOnOnePage` with every load of the worker's page opening logged in, in the light theme: one
 * login per worker, as the demo player or as a player registered for the worker.
 */
export function testOnOnePageLoggedIn(player: 'demo' | 'new player') {
  return testOnOnePage.extend<object, { loggedIn: LoginResult }>({
    loggedIn: [
      async ({ workerPage }, use) => {
        const who = player === 'new player' ? await registerPlayer() : undefined
        const session = await login(who?.phone, who?.password)
        await storeSessionOnLoad(workerPage, session)
        await workerPage.addInitScript(({ key, value }) => localStorage.setItem(key, value), {
          key: STORAGE_KEY.theme,
          value: 'light' satisfies Theme,
        })
        await use(session)
      },
      { scope: 'worker', auto: true },
    ],
  })
}

/**
 * Switches the open page to `theme` as the app does for a change made in another tab (the stored
 * theme and a `storage` event), with every colour transition run to its end.
 */
export async function switchTheme(page: Page, theme: Theme): Promise<void> {
  await page.evaluate(
    ({ key, theme }) => {
      localStorage.setItem(key, theme)
      window.dispatchEvent(new StorageEvent('storage', { key, newValue: theme }))
    },
    { key: STORAGE_KEY.theme, theme },
  )
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme)
  await page.evaluate(() => {
    for (const animation of document.getAnimations()) {
      if (animation instanceof CSSTransition) animation.finish()
    }
  })
}

/** The stored keys (docs/product.md#stored-keys), as the page holds them. */
export function storedKeys(page: Page): Promise<Record<string, string | null>> {
  return page.evaluate((keys) => {
    const out: Record<string, string | null> = {}
    for (const key of keys) out[key] = localStorage.getItem(key)
    return out
  }, Object.values(STORAGE_KEY))
}

/**
 * The session is gone as docs/product.md#session-flows says: the page is on /login?isreg=0 and the
 * login keys are cleared.
 */
export async function expectSessionCleared(page: Page): Promise<void> {
  await expect(page).toHaveURL(/\/login\?isreg=0$/)
  const keys = await storedKeys(page)
  expect(keys[STORAGE_KEY.isLogin]).toBeNull()
  expect(keys[STORAGE_KEY.token]).toBeNull()
  expect(keys[STORAGE_KEY.loginData]).toBeNull()
}

/**
 * Stores a login's session in the page's localStorage the way the app does. Runs in the page. With
 * `once`, a name kept in the tab's sessionStorage, it stores the session on the first load of the
 * tab only, so that a later logout or session loss survives reloads.
 */
function storeSession({ data, keys, once }: { data: LoginResult; keys: typeof STORAGE_KEY; once?: string }) {
  if (once) {
    if (window !== window.top || location.protocol !== 'http:' || sessionStorage.getItem(once)) return
    sessionStorage.setItem(once, '1')
  }
  localStorage.setItem(keys.token, data.token)
  localStorage.setItem(
    keys.loginData,
    JSON.stringify({ player_id: data.player_id, expires_at: data.expires_at }),
  )
  localStorage.setItem(keys.userInfo, JSON.stringify(data.user_info))
  localStorage.setItem(keys.isLogin, '1')
}

/**
 * Logs in through the API and opens `path` with the session already stored the way the app stores
 * it, as a returning player's browser would: one page load. The session is stored before the app's
 * scripts run on the next load of the page, and on that one only, so a later logout or session loss
 * stays lost across reloads.
 */
export async function openLoggedIn(
  page: Page,
  path: string,
  who?: { phone: string; password: string },
): Promise<LoginResult> {
  const data = await login(who?.phone, who?.password)
  await page.addInitScript(storeSession, { data, keys: STORAGE_KEY, once: `e2e-session-${data.token}` })
  await page.goto(path)
  return data
}

/**
 * Resolves once the page's reality check is answered. A logged-in page asks for it last of its
 * start-up calls (its code loads after the page is up), so a session ended after this is first met
 * by whatever the test does next, not by the page's own start-up.
 */
export async function realityCheckAnswered(page: Page): Promise<void> {
  await page.waitForResponse((res) => new URL(res.url()).pathname === realityCheck.path)
}

/**
 * Stores the session of an earlier login before the app's scripts run on every load of the page,
 * so that the first `goto` already opens logged in: no login request and no extra page load.
 */
export async function storeSessionOnLoad(page: Page, data: LoginResult): Promise<void> {
  await page.addInitScript(storeSession, { data, keys: STORAGE_KEY })
}

/**
 * Opens /home on the page's clock and, once the page is up (its first calls have left by then),
 * moves that clock past the app's request timeout instead of waiting the 10 s out.
 */
export async function openHomePastRequestTimeout(page: Page): Promise<void> {
  await page.clock.install()
  await page.goto('/home')
  await expect(page.getByRole('heading', { name: '热门游戏' })).toBeVisible()
  await page.clock.fastForward(REQUEST_TIMEOUT_MS)
}

/** The antd-mobile toast showing exactly this text. */
export const toast = (page: Page, text: string) =>
  page
    .locator('.adm-toast-main')
    .filter({ hasText: new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) })

declare global {
  interface Window {
    __toasts?: string[]
  }
}

/** Records the text of every toast the page shows, so a short-lived one is not missed. */
export async function recordToasts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: string[] = []
    window.__toasts = seen
    new MutationObserver(() => {
      for (const el of document.querySelectorAll('.adm-toast-main')) {
        const text = el.textContent ?? ''
        if (text && seen[seen.length - 1] !== text) seen.push(text)
      }
    }).observe(document, { subtree: true, childList: true, characterData: true })
  })
}

export const toastsSeen = (page: Page): Promise<string[]> => page.evaluate(() => window.__toasts ?? [])

/** Taps digits on the number keyboard that is on screen (a closed one slides below the viewport). */
export async function typeOnKeyboard(page: Page, digits: string) {
  const height = page.viewportSize()?.height ?? 0
  for (const digit of digits) {
    const keys = page.locator('.adm-number-keyboard-popup').getByRole('button', { name: digit, exact: true })
    await expect(keys.first()).toBeAttached()
    // A keyboard that is still sliding up is not on screen yet: look again until one is.
    const onScreen = async () => {
      for (const key of await keys.all()) {
        const box = await key.boundingBox()
        if (box && box.y >= 0 && box.y + box.height <= height) return key
      }
      return null
    }
    await expect
      .poll(async () => (await onScreen()) !== null, { message: `key ${digit} on screen` })
      .toBe(true)
    await (await onScreen())?.click()
  }
}
