import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { updatePaymentPassword } from '@shared/contract/account'
import { MSG } from '@shared/messages'
import { api } from './support/api'
import { addFault, baseUrl, countCalls, login, registerPlayer } from './support/emu'
import { test as emuTest, expect } from './support/emu-fixture'
import {
  expectSessionCleared,
  openHomePastRequestTimeout,
  openLoggedIn,
  recordToasts,
  test,
  toast,
  toastsSeen,
  waitForQuietNetwork,
} from './support/test'

/**
 * Each shipped scenario, activated from the command line (`npm run emu -- …`) for this test's
 * scope, does in a real browser what its name says.
 */

const run = promisify(execFile)

async function emu(scope: string, ...args: string[]): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', 'scripts/emu-cli.ts', '--url', baseUrl(), '--scope', scope, ...args],
    { timeout: 30_000 },
  )
  return stdout
}

const activate = (scope: string, name: string, params: Record<string, string> = {}, json = false) =>
  emu(
    scope,
    'scenario',
    name,
    ...Object.entries(params).flatMap(([k, v]) => ['--param', `${k}=${v}`]),
    ...(json ? ['--json'] : []),
  )

const PAY_PASSWORD = '246810'

/**
 * A fresh player with 110.00 USDT (100 through the deposit-arrives scenario and its 10% first-deposit
 * bonus) and a payment password.
 */
async function fundedPlayer(scope: string): Promise<{ phone: string; password: string }> {
  const player = await registerPlayer()
  await activate(scope, 'deposit-arrives', { phone: player.phone, password: player.password, amount: '100' })
  const session = await login(player.phone, player.password)
  await api(updatePaymentPassword, {
    token: session.token,
    body: { pay_password: PAY_PASSWORD, login_password: player.password },
  })
  return player
}

test.describe('scenarios from the command line', () => {
  for (const name of ['session-expired', 'session-revoked', 'body-401']) {
    test(`${name}: the next call ends the session with 登录已失效!`, async ({ page, scope }) => {
      await openLoggedIn(page, '/home')
      await expect(page.getByTestId('balance').first()).toContainText('1000.00')
      // Off the app while the scenario is switched on: a background call of the page being left
      // (a balance refresh, the settlement watch) would otherwise take the one fault and be
      // dropped with the page.
      await page.goto('about:blank')
      await activate(scope, name)
      await page.goto('/home')
      await expect(toast(page, MSG.sessionExpired)).toBeVisible()
      await expectSessionCleared(page)
    })
  }

  test('timeout: a call hangs past 10 s and the timeout message shows', async ({ page, scope }) => {
    await activate(scope, 'timeout')
    await openHomePastRequestTimeout(page)
    await expect(toast(page, MSG.timeout)).toBeVisible()
  })

  test('network-down: calls fail with the network message', async ({ page, scope }) => {
    await activate(scope, 'network-down')
    await page.goto('/home')
    await expect(toast(page, MSG.network)).toBeVisible()
  })

  test('slow-network: the loading toast shows', async ({ page, scope }) => {
    test.setTimeout(60_000)
    await activate(scope, 'slow-network')
    // Recorded as it appears: a call answered 1.6 s late shows the toast for a tenth of a second,
    // too short for polling its visibility to be sure of seeing it.
    await recordToasts(page)
    await page.goto('/home')
    await expect.poll(() => toastsSeen(page), { timeout: 15_000 }).toContain(MSG.loading)
  })

  test('flaky: every third call fails once; the app asks again once and the player sees nothing', async ({
    page,
    scope,
  }) => {
    await activate(scope, 'flaky')
    await recordToasts(page)
    const answers: { url: string; status: number }[] = []
    page.on('response', (res) => {
      if (res.url().includes('/api/')) answers.push({ url: res.url(), status: res.status() })
    })
    // A logged-in home page makes several reads at once (user info, balance, announcement, …).
    await openLoggedIn(page, '/home')
    await expect(page.getByTestId('balance').first()).toContainText('1000.00')
    await expect(page.locator('.notice-line')).toBeVisible()
    // The third call failed, and the same read asked again was answered (the page may already show
    // what it needs from the other reads by then: the retry waits a moment before asking).
    expect(answers[2]?.status).toBe(503)
    await expect.poll(() => answers.slice(3).find((a) => a.url === answers[2]?.url)?.status).toBe(200)
    expect(await toastsSeen(page)).not.toContain('服务繁忙，请稍后重试')
    const count = JSON.parse(await emu(scope, 'requests', 'count', '--path', '/api/**', '--json')) as unknown
    expect(JSON.stringify(count)).toMatch(/[1-9]/)
  })

  test('deposit-arrives: the balance grows by the deposit and its first-deposit bonus', async ({
    page,
    scope,
  }) => {
    const player = await registerPlayer()
    await activate(scope, 'deposit-arrives', {
      phone: player.phone,
      password: player.password,
      amount: '250',
    })
    await openLoggedIn(page, '/home', player)
    await expect(page.getByTestId('balance').first()).toContainText('275.00')
  })

  test('withdrawal-rejected: the money comes back and nothing is lost', async ({ page, scope }) => {
    const player = await fundedPlayer(scope)
    await activate(scope, 'withdrawal-rejected', {
      phone: player.phone,
      password: player.password,
      payPassword: PAY_PASSWORD,
      amount: '20',
    })
    await openLoggedIn(page, '/home', player)
    await expect(page.getByTestId('balance').first()).toContainText('110.00')
    await page.goto('/tophistory?tab=withdraw')
    await expect(page.getByText('退回原因：地址风险，审核未通过').first()).toBeVisible()
  })

  test('insufficient-balance: the balance is drained to 0.00', async ({ page, scope }) => {
    const player = await fundedPlayer(scope)
    await activate(scope, 'insufficient-balance', {
      phone: player.phone,
      password: player.password,
      payPassword: PAY_PASSWORD,
      amount: '99',
    })
    await openLoggedIn(page, '/home', player)
    await expect(page.getByTestId('balance').first()).toContainText('0.00')
  })

  test('new-player: a fresh account with a zero balance', async ({ page, scope }) => {
    const out = JSON.parse(await activate(scope, 'new-player', {}, true)) as {
      vars: { phone: string; password: string }
    }
    await openLoggedIn(page, '/home', { phone: out.vars.phone, password: out.vars.password })
    await expect(page.getByTestId('balance').first()).toContainText('0.00')
  })
})

test.describe('network shapes as Chromium sees them', () => {
  const balanceCall = `/api/api/getBalance`

  test('a reset after the head is not retried: one call, and the network message shows', async ({
    page,
    scope,
  }) => {
    test.setTimeout(90_000)
    const count = (matched?: boolean) =>
      countCalls(scope, { path: balanceCall, ...(matched ? { unmatched: false } : {}) })
    await openLoggedIn(page, '/home')
    await expect(page.getByTestId('balance').first()).toContainText('1000.00')
    await waitForQuietNetwork(page)
    const before = await count()
    await addFault(scope, {
      match: { path: balanceCall },
      action: { type: 'reset', after: 'head' },
      times: 1,
    })
    // The balance calls the page itself makes from here on (the app asks again for a balance that
    // failed once the server answers, whenever that is).
    let sentByPage = 0
    page.on('request', (req) => {
      if (new URL(req.url()).pathname === balanceCall) sentByPage += 1
    })
    // Every toast shown from the reload on, so one that came and went on a busy machine is seen.
    await recordToasts(page)
    await page.reload()
    await expect.poll(() => toastsSeen(page), { timeout: 15_000 }).toContain(MSG.network)
    await waitForQuietNetwork(page)
    // The server saw exactly the calls the page made: Chromium did not send the broken one again.
    // (How many a load makes varies: the push channel's snapshot asks for the balance once more.)
    expect(sentByPage).toBeGreaterThanOrEqual(1)
    // Polled: a call the page has just sent may not have reached the server's count yet (or the
    // other way round); a call Chromium sent again on its own would leave the two apart for good.
    await expect.poll(async () => (await count()) - sentByPage, { timeout: 10_000 }).toBe(before)
    expect(await count(true)).toBe(1)
  })

  test('slicer and bandwidth: the answer arrives in pieces and whole; timeout: no answer at all', async ({
    page,
    scope,
  }) => {
    test.setTimeout(90_000)
    const player = await openLoggedIn(page, '/home')
    await expect(page.getByTestId('balance').first()).toContainText('1000.00')
    // The test's own reads carry a header of their own, and each rule matches only them: the page's
    // own balance calls, still coming in after the first load, must not take a rule meant for a read.
    const shape = (name: string) => ({ path: balanceCall, headers: { 'x-test-read': name } })
    const read = (name: string) =>
      page.evaluate(
        async ({ url, token, name }) => {
          try {
            const res = await fetch(url, { headers: { token, 'x-test-read': name } })
            const reader = res.body?.getReader()
            let chunks = 0
            let text = ''
            const decoder = new TextDecoder()
            for (;;) {
              const part = await reader?.read()
              if (!part || part.done) break
              chunks++
              text += decoder.decode(part.value, { stream: true })
            }
            return { chunks, code: (JSON.parse(text) as { code: number }).code, error: null }
          } catch (err) {
            return { chunks: 0, code: null, error: err instanceof Error ? err.name : String(err) }
          }
        },
        { url: `${balanceCall}?player_id=${player.player_id}`, token: player.token, name },
      )
    await addFault(scope, { match: shape('sliced'), action: { type: 'slicer', chunkBytes: 24, delayMs: 60 } })
    const sliced = await read('sliced')
    expect(sliced.code).toBe(1)
    expect(sliced.chunks).toBeGreaterThan(1)
    await addFault(scope, { match: shape('throttled'), action: { type: 'bandwidth', bytesPerSecond: 300 } })
    const throttled = await read('throttled')
    expect(throttled.code).toBe(1)
    expect(throttled.chunks).toBeGreaterThan(1)
    await addFault(scope, { match: shape('cut'), action: { type: 'timeout', ms: 200 } })
    expect((await read('cut')).error).toBe('TypeError')
  })
})

/**
 * The tester's guide's Playwright fixture (docs/testing.md, "From Vitest and Playwright"), used as
 * the guide shows it: the guide's test reads this one, word for word.
 */
emuTest.describe("the guide's emu fixture", () => {
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  emuTest.use({ baseURL: async ({}, use) => use(baseUrl()) })

  emuTest("a scope of its own: the page's calls meet the test's rules", async ({ page, emu }) => {
    await emu.fault('/api/**', { type: 'reset', after: 'head' })
    await page.goto('/home')
    await expect(page.getByText('网络连接错误，请检查网络设置').first()).toBeVisible()
    await emu.expectCalled({ path: '/api/**', atLeast: 1 })
  })
})
