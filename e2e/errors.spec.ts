import { TOAST_DURATION_MS } from '@shared/constants'
import { CODE } from '@shared/envelope-plain'
import { MSG } from '@shared/messages'
import { STORAGE_KEY } from '@shared/storage-keys'
import { addFault, emu, removeFault } from './support/emu'
import {
  expect,
  expectSessionCleared,
  openHomePastRequestTimeout,
  openLoggedIn,
  realityCheckAnswered,
  recordToasts,
  storedKeys,
  test,
  toast,
  toastsSeen,
} from './support/test'

/** Each row of the error catalogue (docs/product.md#error-catalogue), produced through the fault layer. */

const BALANCE = '/api/api/getBalance'
const ANNOUNCEMENT = '/api/api2/announcement'

test.describe('session loss', () => {
  // The toast may come and go while a loaded machine is still finishing the page load.
  test.beforeEach(({ page }) => recordToasts(page))

  test('body code 10001 shows 登录已失效!, clears the login and lands on /login?isreg=0', async ({
    page,
    scope,
  }) => {
    await addFault(scope, { match: { path: BALANCE }, action: { type: 'envelope', code: 10001 } })
    await openLoggedIn(page, '/home')
    await expect.poll(() => toastsSeen(page)).toContain(MSG.sessionExpired)
    await expectSessionCleared(page)
  })

  test('body code 10001 with a message shows that message', async ({ page, scope }) => {
    await addFault(scope, {
      match: { path: BALANCE },
      action: { type: 'envelope', code: 10001, msg: '您的账号已在别处登录' },
    })
    await openLoggedIn(page, '/home')
    await expect.poll(() => toastsSeen(page)).toContain('您的账号已在别处登录')
    await expectSessionCleared(page)
  })

  test('body code 401 clears the login the same way', async ({ page, scope }) => {
    await addFault(scope, { match: { path: BALANCE }, action: { type: 'envelope', code: 401 } })
    await openLoggedIn(page, '/home')
    await expect.poll(() => toastsSeen(page)).toContain(MSG.sessionExpired)
    await expectSessionCleared(page)
  })

  test('HTTP status 401 shows 登录已失效!, clears the login and redirects', async ({ page, scope }) => {
    await addFault(scope, {
      match: { path: BALANCE },
      action: { type: 'status', status: 401, body: 'Unauthorized' },
    })
    await openLoggedIn(page, '/home')
    await expect.poll(() => toastsSeen(page)).toContain(MSG.sessionExpired)
    await expectSessionCleared(page)
  })

  test('an expired session on the server ends the same way', async ({ page }) => {
    // The page's start-up calls carry the token: the session ends after them, so that the next
    // page, not this one, is the first to meet the ended session.
    const startedUp = realityCheckAnswered(page)
    const data = await openLoggedIn(page, '/login')
    await startedUp
    // Ended while no app page is open: the open page's push channel would otherwise hear of it and
    // leave for the login page just as the test opens the next one.
    await page.goto('about:blank')
    await emu().expireSession(data.token)
    await page.goto('/mine')
    await expect.poll(() => toastsSeen(page)).toContain(MSG.sessionExpired)
    await expectSessionCleared(page)
  })
})

test('after a session loss, logging in again returns the player to the page they were on', async ({
  page,
}) => {
  // The reload, not a call the page makes before it, is to meet the ended session.
  const startedUp = realityCheckAnswered(page)
  const data = await openLoggedIn(page, '/exchange')
  await expect(page.getByTestId('exchange-usdt')).toContainText('USDT')
  await startedUp
  // Away from the app while the session ends: a call the running page made in between would meet
  // it and clear the session just as the reload unloads the page, which then never reaches the
  // login page (it would load /exchange logged out).
  await page.goto('about:blank')
  await emu().expireSession(data.token)
  // The page's first call after it loads again meets the ended session.
  await page.goto('/exchange')
  await expectSessionCleared(page)

  const form = page.locator('form:visible')
  await form.getByPlaceholder('请输入手机号').fill('13800138000')
  await form.getByPlaceholder('请输入密码').fill('demo1234')
  await form.getByRole('button', { name: '登录', exact: true }).click()
  await expect(page).toHaveURL(/\/exchange$/)
  await expect(page.getByTestId('exchange-usdt')).toContainText('USDT')
})

test('a lost connection shows one banner, not a toast on every poll, and it goes once calls work', async ({
  page,
  scope,
}) => {
  // A game page asks for its round every few seconds.
  const ROUND = '/api/games/round'
  // Counts each time a network toast appears (a toast that is already up does not count again).
  await page.addInitScript((text) => {
    let shown = false
    const w = window as unknown as { networkToasts: number }
    w.networkToasts = 0
    new MutationObserver(() => {
      const now = [...document.querySelectorAll('.adm-toast-main')].some((el) => el.textContent === text)
      if (now && !shown) w.networkToasts += 1
      shown = now
    }).observe(document, { subtree: true, childList: true, characterData: true })
  }, MSG.network)
  const networkToasts = () =>
    page.evaluate(() => (window as unknown as { networkToasts: number }).networkToasts)
  const banner = page.getByTestId('offline-banner')
  // The page's clock jumps instead of the test waiting: 5 s is past the poll that follows a failed
  // one (3 s) and past the banner's probe (5 s), so each jump sets off the next of them.
  const jump = () => page.clock.fastForward(5_000)

  await page.clock.install()
  await page.goto('/games/hassize')
  await expect(page.getByTestId('round-id')).toHaveText(/\d+/)
  // The connection drops: every call fails.
  const rule = await addFault(scope, { match: { path: '/api/**' }, action: { type: 'reset' } })
  await expect(async () => {
    await jump()
    await expect(banner).toHaveText(MSG.network, { timeout: 1_000 })
  }).toPass()
  await expect.poll(networkToasts).toBe(1)
  // The page keeps polling: three more failed polls, each after any toast would have gone, so a
  // toast for one of them would count again.
  for (let i = 0; i < 3; i++) {
    await page.clock.fastForward(TOAST_DURATION_MS + 500)
    await expect(page.locator('.adm-toast-main')).toHaveCount(0)
    const failed = page.waitForEvent('requestfailed', (req) => req.url().includes(ROUND))
    await jump()
    await failed
  }
  expect(await networkToasts()).toBe(1)
  await expect(banner).toBeVisible()

  await removeFault(rule)
  await jump()
  await expect(banner).toHaveCount(0)
})

test.describe('failures', () => {
  test('a call that hangs past 10 s shows the timeout message', async ({ page, scope }) => {
    await addFault(scope, { match: { path: ANNOUNCEMENT }, action: { type: 'hang' } })
    await openHomePastRequestTimeout(page)
    await expect(toast(page, MSG.timeout)).toBeVisible()
  })

  test('a connection reset shows the network message', async ({ page, scope }) => {
    await addFault(scope, { match: { path: ANNOUNCEMENT }, action: { type: 'reset' } })
    await page.goto('/home')
    await expect(toast(page, MSG.network)).toBeVisible()
  })

  const cases = [
    { name: 'msg', action: { msg: '活动维护中' }, shown: '活动维护中' },
    { name: 'message', action: { message: '公告服务暂不可用' }, shown: '公告服务暂不可用' },
    { name: 'neither', action: {}, shown: MSG.requestFailed },
  ]
  for (const { name, action, shown } of cases) {
    // A refusal with a code of the envelope's table; an unknown code to a read is a missing endpoint
    // (e2e/missing-endpoints.spec.ts).
    test(`a refusal with ${name} shows ${shown} and keeps the session`, async ({ page, scope }) => {
      await addFault(scope, {
        match: { path: ANNOUNCEMENT },
        action: { type: 'envelope', code: CODE.failed, ...action },
      })
      await openLoggedIn(page, '/home')
      await expect(toast(page, shown)).toBeVisible()
      await expect(page).toHaveURL(/\/home$/)
      expect((await storedKeys(page))[STORAGE_KEY.token]).toBeTruthy()
    })
  }
})

test.describe('loading toast', () => {
  // The toast comes LOADING_TOAST_AFTER_MS (1.5 s) into a call. The call takes 5 s, so that a
  // busy machine has seconds, not a fraction of one, to put it on screen while the call runs.
  test('shows 加载中... during a 5 s call and takes it away with the answer', async ({ page, scope }) => {
    await addFault(scope, { match: { path: ANNOUNCEMENT }, action: { type: 'delay', ms: 5000 } })
    let answeredYet = false
    const answered = page
      .waitForResponse((res) => res.url().includes(ANNOUNCEMENT), { timeout: 15_000 })
      .then(() => (answeredYet = true))
    await page.goto('/home')
    await expect(toast(page, MSG.loading)).toBeVisible()
    expect(answeredYet).toBe(false)
    await answered
    await expect(page.locator('.notice-line')).toBeVisible()
    await expect(toast(page, MSG.loading)).toHaveCount(0)
  })

  test('does not show it for the balance call, however slow', async ({ page, scope }) => {
    await recordToasts(page)
    await addFault(scope, { match: { path: BALANCE }, action: { type: 'delay', ms: 2000 } })
    const answered = page.waitForResponse((res) => res.url().includes(BALANCE))
    await openLoggedIn(page, '/home')
    await answered
    await expect(page.getByTestId('balance')).toHaveText(/^\d+\.\d{2}USDT$/)
    expect(await toastsSeen(page)).not.toContain(MSG.loading)
  })
})
