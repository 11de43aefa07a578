import type { Page } from '@playwright/test'
import { getBalance } from '@shared/contract/account'
import { currentRound } from '@shared/contract/games'
import { stream } from '@shared/contract/stream'
import { api } from './support/api'
import { addFault, emu } from './support/emu'
import { expect, openLoggedIn, test } from './support/test'

/**
 * The push channel's own faults (docs/testing.md#stream-faults) in the browser: a stream cut off
 * mid-way, reconnections refused, a `session_end` the server never meant. On the shared server in
 * real time: the block game draws every 3 s.
 */

const GAME = 'qukuai'

/** What the page did, in order: each stream opening's answer status, and each round poll. */
function recordStream(page: Page): string[] {
  const seen: string[] = []
  page.on('request', (req) => {
    if (new URL(req.url()).pathname === currentRound.path) seen.push('round')
  })
  page.on('response', (res) => {
    if (new URL(res.url()).pathname === stream.path) seen.push(`stream ${res.status()}`)
  })
  return seen
}

const streamLive = (page: Page, timeout = 15_000) =>
  expect(page.locator('html')).toHaveAttribute('data-stream', 'live', { timeout })

/** The stream entries of this scope's journal, oldest first. */
const streamEntries = async (scope: string) => (await emu(scope).requests({ path: stream.path })).entries

test('a stream dropped after two events: the app reconnects and the next draw still shows', async ({
  page,
  scope,
}) => {
  test.setTimeout(45_000)
  await addFault(scope, {
    match: { path: stream.path },
    action: { type: 'streamDrop', afterEvents: 2 },
    times: 1,
  })
  const seen = recordStream(page)
  await openLoggedIn(page, `/games/${GAME}`)
  // The first stream is cut after its snapshot and one event (a round or a draw); the app opens another.
  await expect.poll(() => seen.filter((s) => s === 'stream 200').length, { timeout: 15_000 }).toBe(2)
  await streamLive(page)
  const entries = await streamEntries(scope)
  expect(entries[0]).toMatchObject({ outcome: 'dropped', fault: { action: 'streamDrop' } })
  expect(entries[0]?.stream).toMatchObject({ events: 2, end: 'dropped' })
  // The reconnected stream gave the missed events back (Last-Event-ID), and brings the next draw.
  const lastSent = entries[0]?.stream?.recent.filter((e) => e.sent).at(-1)
  expect(entries[1]?.request?.headers['last-event-id']).toBe(lastSent?.id)
  const first = page.getByTestId('results-strip').getByTestId('strip-draw').first()
  await expect(first).toBeVisible({ timeout: 15_000 })
  const before = await first.getAttribute('data-round-id')
  await expect(first).not.toHaveAttribute('data-round-id', before ?? '', { timeout: 10_000 })
  await expect(page.locator('html')).toHaveAttribute('data-stream', 'live')
})

test('reconnections refused three times: the app polls meanwhile, then returns to the stream', async ({
  page,
  scope,
}) => {
  test.setTimeout(60_000)
  await addFault(scope, {
    match: { path: stream.path },
    action: { type: 'streamDrop', afterEvents: 1 },
    times: 1,
  })
  const refuse = await addFault(scope, {
    match: { path: stream.path },
    action: { type: 'streamRefuse' },
    times: 3,
  })
  const seen = recordStream(page)
  await openLoggedIn(page, `/games/${GAME}`)
  // Cut, then refused 3 times with growing waits (about 1, 2, 4 s), then let through.
  await expect
    .poll(() => seen.filter((s) => s.startsWith('stream')), { timeout: 30_000 })
    .toEqual(['stream 200', 'stream 503', 'stream 503', 'stream 503', 'stream 200'])
  await streamLive(page)
  // While the stream was down the page asked for the round itself.
  const down = seen.slice(seen.indexOf('stream 503'), seen.lastIndexOf('stream 200'))
  expect(down.filter((s) => s === 'round').length).toBeGreaterThanOrEqual(1)
  expect(await emu(scope).getFault(refuse)).toMatchObject({ fired: 3, spent: true })
  // Back on the stream, the page stops polling.
  await page.waitForTimeout(1_000)
  const from = seen.length
  await page.waitForTimeout(5_000)
  expect(seen.slice(from).filter((s) => s === 'round')).toEqual([])
})

test('a session_end sent on the stream alone takes the app to /login?isreg=0', async ({ page, scope }) => {
  await addFault(scope, {
    match: { path: stream.path },
    action: { type: 'streamSessionEnd', afterEvents: 1 },
    times: 1,
  })
  const session = await openLoggedIn(page, '/mine')
  await expect(page).toHaveURL(/\/login\?isreg=0/, { timeout: 15_000 })
  // Only the stream said so: the session itself still answers.
  const balance = await api(getBalance, {
    token: session.token,
    scope,
    query: { player_id: session.player_id },
  })
  expect(balance.balance).toBeDefined()
  const entries = await streamEntries(scope)
  expect(entries[0]?.stream).toMatchObject({ end: 'session_end', touched: 1 })
})
