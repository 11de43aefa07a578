import type { Page, Request } from '@playwright/test'
import { getBalance } from '@shared/contract/account'
import { betHistory, currentRound, gameResults, placeBets } from '@shared/contract/games'
import { api } from './support/api'
import { addFault, registerPlayer, removeFault, topUp } from './support/emu'
import { expect, openLoggedIn, test } from './support/test'

/**
 * The push channel in the browser (docs/realtime.md): an idle game page stops polling, a draw shows
 * at its time with nobody asking, the balance follows a settlement placed elsewhere, and a failing
 * stream falls back to polling and comes back. These run on the shared server in real time: the
 * block game draws every 3 s.
 */

const GAME = 'qukuai'

/** Records the page's /api requests (the stream's own included) from now on. */
function recordApi(page: Page): {
  paths: () => string[]
  since: (mark: number) => string[]
  mark: () => number
} {
  const seen: string[] = []
  const onRequest = (req: Request) => {
    const path = new URL(req.url()).pathname
    if (path.startsWith('/api/')) seen.push(path)
  }
  page.on('request', onRequest)
  return { paths: () => [...seen], since: (mark) => seen.slice(mark), mark: () => seen.length }
}

const streamLive = (page: Page) =>
  expect(page.locator('html')).toHaveAttribute('data-stream', 'live', { timeout: 15_000 })

test('an idle block-game page makes at most 6 /api requests a minute while the stream is healthy', async ({
  page,
}) => {
  test.setTimeout(60_000)
  const calls = recordApi(page)
  await openLoggedIn(page, `/games/${GAME}`)
  await streamLive(page)
  // What the page asks for when it opens is over once the stream's snapshot has been acted on.
  await page.waitForTimeout(3_000)
  const from = calls.mark()
  // A real 20 s (nearly 7 draws of the block game), scaled to a minute.
  const windowMs = 20_000
  await page.waitForTimeout(windowMs)
  const during = calls.since(from)
  const perMinute = (during.length * 60_000) / windowMs
  console.log(
    `idle ${GAME} page: ${during.length} /api requests in ${windowMs / 1000} s (${perMinute}/min): ${during.join(', ')}`,
  )
  expect(perMinute).toBeLessThanOrEqual(6)
  // The page still moved on: draws came in over the stream.
  await expect(page.getByTestId('results-strip').getByTestId('strip-draw').first()).toBeVisible()
})

test('a draw appears at its draw time without the page asking for it', async ({ page, scope }) => {
  const calls = recordApi(page)
  await openLoggedIn(page, `/games/${GAME}`)
  await streamLive(page)
  await page.waitForTimeout(1_000)
  const first = page.getByTestId('results-strip').getByTestId('strip-draw').first()
  const shownBefore = await first.getAttribute('data-round-id')
  // Noted by the page itself, the moment the new draw is in the strip.
  await page.evaluate(() => {
    const strip = document.querySelector('[data-testid="results-strip"]')
    const before = strip?.querySelector('[data-testid="strip-draw"]')?.getAttribute('data-round-id')
    const w = window as unknown as { __drawSeen?: { id: string; at: number } }
    const observer = new MutationObserver(() => {
      const id = strip?.querySelector('[data-testid="strip-draw"]')?.getAttribute('data-round-id')
      if (id && id !== before && !w.__drawSeen) w.__drawSeen = { id, at: Date.now() }
    })
    if (strip) observer.observe(strip, { childList: true, subtree: true, attributes: true })
  })
  const from = calls.mark()
  await expect(first).not.toHaveAttribute('data-round-id', shownBefore ?? '', { timeout: 10_000 })
  const seen = await page.evaluate(
    () => (window as unknown as { __drawSeen?: { id: string; at: number } }).__drawSeen,
  )
  expect(seen).toBeDefined()
  // Nobody asked for the round or the results: the stream brought them.
  const asked = calls.since(from).filter((p) => p === currentRound.path || p === gameResults.path)
  expect(asked).toEqual([])
  // How long after its draw time the draw was on the screen (server and browser share this machine's clock).
  const recent = await api(gameResults, { scope, query: { game: GAME, page: 1, page_size: 20 } })
  const drawAt = recent.list.find((d) => d.round_id === seen?.id)?.draw_at
  expect(drawAt).toBeDefined()
  if (drawAt !== undefined && seen) {
    console.log(`draw ${seen.id} on screen ${seen.at - drawAt} ms after its draw time`)
    expect(seen.at - drawAt).toBeLessThan(1_000)
  }
})

test('the balance follows a settlement of a bet placed elsewhere, without the page asking for it', async ({
  page,
  scope,
}) => {
  test.setTimeout(45_000)
  const player = await registerPlayer()
  await topUp(player, '100', scope)
  const calls = recordApi(page)
  // Another page than the game's: the bet is placed from another device (the API here).
  const session = await openLoggedIn(page, '/mine', player)
  await streamLive(page)
  const balance = page.getByTestId('balance').first()
  await expect(balance).toContainText('110.00')
  const from = calls.mark()
  const round = await api(currentRound, { scope, query: { game: GAME } })
  await api(placeBets, {
    token: session.token,
    scope,
    body: { game: GAME, round_id: round.next.round_id, bets: [{ bet_type: 'odd', amount: '2' }] },
  })
  // The stake leaves the balance at once.
  await expect(balance).toContainText('108.00')
  // Then the round is drawn and settled: the balance is the server's.
  await expect
    .poll(
      async () =>
        (await api(betHistory, { token: session.token, scope, query: { page: 1, page_size: 5 } })).list[0]
          ?.status,
      { timeout: 15_000 },
    )
    .not.toBe('pending')
  const after = await api(getBalance, {
    token: session.token,
    scope,
    query: { player_id: session.player_id },
  })
  await expect(balance).toContainText(after.balance.replace(/(\.\d\d)\d*$/, '$1'))
  const settled = (await api(betHistory, { token: session.token, scope, query: { page: 1, page_size: 5 } }))
    .list[0]
  if (settled?.status === 'won') await expect(page.getByText(/恭喜中奖/)).toBeVisible()
  // The balance was never asked for: it came with the events.
  expect(calls.since(from).filter((p) => p === getBalance.path)).toEqual([])
})

test('a failing stream falls back to polling, and the page goes back to the stream when it can', async ({
  page,
  scope,
}) => {
  test.setTimeout(60_000)
  const fault = await addFault(scope, {
    match: { path: '/api/stream' },
    action: { type: 'status', status: 503 },
  })
  const calls = recordApi(page)
  await openLoggedIn(page, `/games/${GAME}`)
  // The stream is refused: the page polls the round as before, and draws still show.
  await expect
    .poll(() => calls.paths().filter((p) => p === '/api/stream').length, { timeout: 10_000 })
    .toBeGreaterThanOrEqual(2)
  const pollFrom = calls.mark()
  await page.waitForTimeout(4_000)
  expect(calls.since(pollFrom).filter((p) => p === currentRound.path).length).toBeGreaterThanOrEqual(2)
  await expect(page.locator('html')).not.toHaveAttribute('data-stream', 'live')
  // The stream is let through again: the page gets back to it and its polling stops.
  await removeFault(fault)
  await expect(page.locator('html')).toHaveAttribute('data-stream', 'live', { timeout: 30_000 })
  await page.waitForTimeout(1_000)
  const liveFrom = calls.mark()
  await page.waitForTimeout(5_000)
  expect(calls.since(liveFrom).filter((p) => p === currentRound.path)).toEqual([])
})
