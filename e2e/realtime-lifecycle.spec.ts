import type { Page, Request } from '@playwright/test'
import { getBalance } from '@shared/contract/account'
import { gameResults } from '@shared/contract/games'
import { api } from './support/api'
import { expect, openLoggedIn, test } from './support/test'

/**
 * The push channel's life in the browser (docs/realtime.md#the-client): closed while the page is
 * hidden and caught up by replay when it is shown; caught up after a frozen tab resumes; a gap too
 * old to replay answered by a snapshot that makes the page read again. On the shared server in real
 * time: the block game draws every 3 s.
 */

const GAME = 'qukuai'

/** Every stream the page opens, with the Last-Event-ID it sent. */
function recordStreams(page: Page): { opened: () => { lastEventId: string | null }[] } {
  const opened: { lastEventId: string | null }[] = []
  page.on('request', (req: Request) => {
    if (new URL(req.url()).pathname === '/api/stream')
      opened.push({ lastEventId: req.headers()['last-event-id'] ?? null })
  })
  return { opened: () => [...opened] }
}

/** The /api calls the page makes from now on, by path. */
function recordCalls(page: Page): () => string[] {
  const seen: string[] = []
  page.on('request', (req: Request) => {
    const path = new URL(req.url()).pathname
    if (path.startsWith('/api/') && path !== '/api/stream') seen.push(path)
  })
  return () => [...seen]
}

const streamIs = (page: Page, status: string, timeout = 15_000) =>
  expect(page.locator('html')).toHaveAttribute('data-stream', status, { timeout })

/** Tells the page it is hidden or shown, as a phone does when the player switches apps. */
async function setVisible(page: Page, visible: boolean): Promise<void> {
  await page.evaluate((v) => {
    Object.defineProperty(document, 'visibilityState', {
      value: v ? 'visible' : 'hidden',
      configurable: true,
    })
    Object.defineProperty(document, 'hidden', { value: !v, configurable: true })
    document.dispatchEvent(new Event('visibilitychange'))
  }, visible)
}

const newestShown = (page: Page) =>
  page.getByTestId('results-strip').getByTestId('strip-draw').first().getAttribute('data-round-id')

async function newestDrawn(scope: string): Promise<string> {
  const recent = await api(gameResults, { scope, query: { game: GAME, page: 1, page_size: 1 } })
  return recent.list[0]?.round_id ?? ''
}

test('a hidden page closes its stream; shown again it sends the last id and the draws it missed arrive by replay', async ({
  page,
  scope,
}) => {
  test.setTimeout(60_000)
  const streams = recordStreams(page)
  await openLoggedIn(page, `/games/${GAME}`)
  await streamIs(page, 'live')
  await setVisible(page, false)
  await streamIs(page, 'off')
  const hiddenAt = await newestDrawn(scope)
  // At least one draw while hidden.
  await expect.poll(() => newestDrawn(scope), { timeout: 10_000 }).not.toBe(hiddenAt)
  const calls = recordCalls(page)
  const before = streams.opened().length
  await setVisible(page, true)
  await streamIs(page, 'live')
  const reopened = streams.opened().slice(before)
  expect(reopened).toHaveLength(1)
  expect(reopened[0]?.lastEventId, 'the last id seen before hiding').toMatch(/.+-\d+/)
  // The strip shows the draws made while hidden, brought by the replay: no results call was needed.
  const newest = await newestDrawn(scope)
  await expect.poll(() => newestShown(page), { timeout: 5_000 }).toBe(newest)
  expect(calls().filter((p) => p === gameResults.path)).toEqual([])
})

test('a frozen tab that resumes reconnects at once with its last id', async ({ page }) => {
  const streams = recordStreams(page)
  await openLoggedIn(page, `/games/${GAME}`)
  await streamIs(page, 'live')
  const before = streams.opened().length
  await page.evaluate(() => {
    document.dispatchEvent(new Event('freeze'))
    document.dispatchEvent(new Event('resume'))
  })
  await expect.poll(() => streams.opened().length, { timeout: 5_000 }).toBe(before + 1)
  expect(streams.opened().at(-1)?.lastEventId).toMatch(/.+-\d+/)
  await streamIs(page, 'live')
})

test('a last id too old to replay gets a snapshot, and the page reads its balance and results again', async ({
  page,
}) => {
  // Every reconnection claims an id from another run of the server: nothing can be replayed.
  await page.route(
    (url) => url.pathname === '/api/stream',
    (route) =>
      route.continue({
        headers: {
          ...route.request().headers(),
          ...(route.request().headers()['last-event-id'] ? { 'last-event-id': 'zz-1' } : {}),
        },
      }),
  )
  await openLoggedIn(page, `/games/${GAME}`)
  await streamIs(page, 'live')
  const calls = recordCalls(page)
  await page.evaluate(() => document.dispatchEvent(new Event('resume')))
  await expect
    .poll(() => calls().filter((p) => p === getBalance.path).length, { timeout: 10_000 })
    .toBeGreaterThan(0)
  await expect.poll(() => calls().includes(gameResults.path), { timeout: 10_000 }).toBe(true)
  await streamIs(page, 'live')
})
