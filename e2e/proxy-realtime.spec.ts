import { test as base, expect, type Page, type Request } from '@playwright/test'
import { getBalance, login } from '@shared/contract/account'
import { betHistory, currentRound, gameResults, placeBets } from '@shared/contract/games'
import { api } from './support/api'
import { DEMO, type LoginResult } from './support/emu'
import { type Started, startServer } from './support/server-process'
import { storeSessionOnLoad } from './support/test'

/**
 * The push channel in proxy mode (docs/realtime.md#proxy-mode): the built server in proxy mode in
 * front of the built server in emulator mode, one pair per worker. The proxy serves the stream with
 * the draws its reader takes from the upstream; the stream carries no player events, so the app
 * reads the player's bets and balance itself after a draw of a round with bets pending. Real time:
 * the block game draws every 3 s.
 */

const GAME = 'qukuai'

interface ProxySet {
  /** The server in proxy mode: the app the browser opens. */
  proxy: string
  /** The upstream, an emulator: the tests set up and read reference values there. */
  emulator: string
}

const test = base.extend<{ pageErrors: string[] }, { set: ProxySet }>({
  set: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const stops: (() => Promise<void>)[] = []
      try {
        const emulator: Started = await startServer()
        stops.push(emulator.stop)
        const proxy = await startServer({
          env: { MODE: 'proxy', UPSTREAM_URL: emulator.base },
          ready: '/readyz',
        })
        stops.push(proxy.stop)
        await use({ proxy: proxy.base, emulator: emulator.base })
      } finally {
        for (const stop of stops.reverse()) await stop()
      }
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  baseURL: async ({ set }, use) => use(set.proxy),
  pageErrors: async ({ page }, use) => {
    const errors: string[] = []
    page.on('pageerror', (err) => errors.push(err.stack ?? err.message))
    await use(errors)
    expect(errors, 'uncaught errors in the page').toEqual([])
  },
})

test.describe.configure({ mode: 'default' })

/** The page's /api requests from now on, by path, with when they left (this machine's clock). */
function recordApi(page: Page) {
  const seen: { path: string; at: number }[] = []
  page.on('request', (req: Request) => {
    const path = new URL(req.url()).pathname
    if (path.startsWith('/api/')) seen.push({ path, at: Date.now() })
  })
  return {
    since: (mark: number) => seen.slice(mark).map((r) => r.path),
    timed: (mark: number) => seen.slice(mark),
    mark: () => seen.length,
  }
}

const streamLive = (page: Page) =>
  expect(page.locator('html')).toHaveAttribute('data-stream', 'live', { timeout: 15_000 })

async function loggedIn(page: Page, set: ProxySet): Promise<LoginResult> {
  const session = await api(login, {
    base: set.emulator,
    body: { phone: DEMO.phone, password: DEMO.password },
  })
  await storeSessionOnLoad(page, session)
  return session
}

test('a proxy-mode game page shows the draws the stream pushes, without asking for them', async ({
  page,
  set,
  pageErrors,
}) => {
  await loggedIn(page, set)
  const calls = recordApi(page)
  const stream = page.waitForRequest((req) => new URL(req.url()).pathname === '/api/stream')
  await page.goto(`/games/${GAME}`)
  // The stream is the proxy's own, with the player's id for the upstream's session check.
  expect(new URL((await stream).url()).searchParams.get('player_id')).toMatch(/^\d+$/)
  await streamLive(page)
  // The stream said it carries no player events.
  await expect(page.locator('html')).toHaveAttribute('data-stream-player-events', 'false')
  await page.waitForTimeout(1_000)
  const first = page.getByTestId('results-strip').getByTestId('strip-draw').first()
  const shownBefore = await first.getAttribute('data-round-id')
  const from = calls.mark()
  await expect(first).not.toHaveAttribute('data-round-id', shownBefore ?? '', { timeout: 10_000 })
  const shown = await first.getAttribute('data-round-id')
  // The upstream's own draw, as its results list it.
  const recent = await api(gameResults, { base: set.emulator, query: { game: GAME, page: 1, page_size: 20 } })
  expect(recent.list.map((d) => d.round_id)).toContain(shown)
  // Nobody on the page asked for the round or the results: the stream brought them.
  const asked = calls.since(from).filter((p) => p === currentRound.path || p === gameResults.path)
  expect(asked).toEqual([])
  await expect(page.getByTestId('round')).not.toHaveAttribute('data-round-id', shown ?? '')
  expect(pageErrors).toEqual([])
})

test('a pending bet’s settlement updates the balance: the app asks at the draw of its round', async ({
  page,
  set,
}) => {
  test.setTimeout(45_000)
  const session = await loggedIn(page, set)
  const round = await api(currentRound, { base: set.emulator, query: { game: GAME } })
  // Bets placed elsewhere (another device) on the last round that takes bets (6–9 s ahead), so the
  // page is open and following before it is drawn.
  const step = round.next.draw_at - round.draw_at
  const target = {
    round_id: String(round.next.height + (round.next.height - round.height)),
    draw_at: round.next.draw_at + step,
  }
  await api(placeBets, {
    base: set.emulator,
    token: session.token,
    body: {
      game: GAME,
      round_id: target.round_id,
      bets: ['big', 'odd', 'banker', 'unlucky'].map((bet_type) => ({ bet_type, amount: '1' })),
    },
  })
  const staked = await api(getBalance, {
    base: set.emulator,
    token: session.token,
    query: { player_id: session.player_id },
  })
  const calls = recordApi(page)
  await page.goto('/mine')
  await streamLive(page)
  const balance = page.getByTestId('balance').first()
  await expect(balance).toContainText(staked.balance.replace(/(\.\d\d)\d*$/, '$1'))
  const from = calls.mark()
  expect(Date.now()).toBeLessThan(target.draw_at)

  // The upstream draws and settles the round.
  await expect
    .poll(
      async () =>
        (
          await api(betHistory, {
            base: set.emulator,
            token: session.token,
            query: { status: 'pending', page: 1, page_size: 20 },
          })
        ).list.length,
      { timeout: 20_000 },
    )
    .toBe(0)
  const settled = await api(getBalance, {
    base: set.emulator,
    token: session.token,
    query: { player_id: session.player_id },
  })
  await expect(balance).toContainText(settled.balance.replace(/(\.\d\d)\d*$/, '$1'))
  // It asked for its bets and its balance when the draw came over the stream, well before its own
  // fallback timer (5 s after the draw time) would have.
  await expect
    .poll(() => calls.timed(from).find((r) => r.path === getBalance.path && r.at >= target.draw_at), {
      timeout: 5_000,
    })
    .toBeDefined()
  const asked = calls.timed(from).filter((r) => r.at >= target.draw_at)
  const bets = asked.find((r) => r.path === betHistory.path)
  expect(bets).toBeDefined()
  expect((bets?.at ?? Number.POSITIVE_INFINITY) - target.draw_at).toBeLessThan(4_500)
  const history = await api(betHistory, {
    base: set.emulator,
    token: session.token,
    query: { page: 1, page_size: 4 },
  })
  if (history.list.some((b) => b.status === 'won')) await expect(page.getByText(/恭喜中奖/)).toBeVisible()
})
