import { paths } from '@client/config/paths'
import { announcementRoute } from '@shared/contract/first-screen'
import { startExclusion } from '@shared/contract/protection'
import { exchange } from '@shared/contract/wallet'
import { api } from './support/api'
import { countCalls, DEMO, login, registerPlayer, topUp } from './support/emu'
import { expect, openLoggedIn, test, toast, waitForQuietNetwork } from './support/test'

test.describe('the announcements call', () => {
  for (const route of ['/home', '/mine']) {
    test(`carries the token of a logged-in player opening ${route}`, async ({ page, scope }) => {
      await openLoggedIn(page, route)
      await waitForQuietNetwork(page)
      const path = announcementRoute.path
      // The app's calls ask for JSON; index.html's preload (which can carry no token) does not.
      const appWithToken = await countCalls(scope, { path, header: ['token', 'accept=application/json'] })
      const appWithout = await countCalls(scope, { path, header: ['!token', 'accept=application/json'] })
      expect({ appWithToken: appWithToken >= 1, appWithout }).toEqual({ appWithToken: true, appWithout: 0 })
    })
  }
})

test.describe('links and dead ends', () => {
  test('the announcements line opens the list, where each announcement is read whole', async ({ page }) => {
    await openLoggedIn(page, paths.home)
    await page.locator('.home-page__notice-link').click()
    await expect(page).toHaveURL(/\/announcements$/)
    await expect(page.getByRole('heading', { name: '公告', level: 1 })).toBeVisible()
    const items = page.locator('.announcements__item')
    await expect(items).toHaveCount(3)
    // The first is open; another opens with a tap on its title.
    await expect(items.first().locator('.announcements__content')).toBeVisible()
    const maintenance = items.filter({ hasText: '系统维护通知' })
    await expect(maintenance.locator('.announcements__content')).toBeHidden()
    await maintenance.locator('summary').click()
    await expect(maintenance.locator('.announcements__content')).toHaveText(/每周二 04:00–04:30 例行维护/)
  })

  test('首页 and 我的 show the TRX balance beside USDT, and it follows an exchange without a reload', async ({
    page,
    scope,
  }) => {
    const player = await registerPlayer()
    await topUp(player, '100', scope)
    const session = await login(player.phone, player.password)
    await openLoggedIn(page, paths.home, player)
    const trx = page.getByTestId('trx-balance')
    await expect(trx).toHaveText('0.00TRX')
    await expect(page.locator('html')).toHaveAttribute('data-stream', 'live')
    await api(exchange, { token: session.token, body: { from: 'USDT', to: 'TRX', amount: '10' } })
    await expect(trx).toHaveText('62.50TRX')
    await page.goto(paths.mine)
    await expect(page.getByTestId('trx-balance')).toHaveText('62.50TRX')
  })

  test('a transfer-bet receiving address is copied whole and shown as a QR code', async ({
    page,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await openLoggedIn(page, paths.betAddresses)
    const line = page.getByTestId('address-line').first()
    const address = ((await line.locator('.address-line__text').textContent()) ?? '').trim()
    expect(address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/)
    await line.getByRole('button', { name: '复制收款地址' }).click()
    await expect(toast(page, '复制成功')).toBeVisible()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address)
    await line.getByRole('button', { name: '收款地址二维码' }).click()
    await expect(line.getByRole('img', { name: '收款地址二维码' })).toBeVisible()
  })

  for (const from of [paths.mine, paths.service]) {
    test(`教程, 网络帮助 and the partner pages are reached from ${from}`, async ({ page }) => {
      for (const [title, path, heading] of [
        ['教程', paths.study, '教程'],
        ['网络帮助', paths.vpn, '网络帮助'],
        ['合作页面', paths.third, '第三方页面'],
      ] as const) {
        await page.goto(from)
        await page.locator('.adm-list-item', { hasText: new RegExp(`^${title}$`) }).click()
        await expect(page).toHaveURL(new RegExp(`${path}$`))
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading)
      }
      // The partner list opens without a refusal.
      await expect(page.getByRole('alert')).toHaveCount(0)
      await expect(page.locator('.adm-list-item').first()).toBeVisible()
    })
  }

  test('分享给好友 uses the system share sheet where the browser has one, and the page stays', async ({
    page,
  }) => {
    await page.addInitScript(() => {
      const shared: unknown[] = []
      ;(window as unknown as { __shared: unknown[] }).__shared = shared
      Object.defineProperty(navigator, 'share', {
        configurable: true,
        value: async (data: unknown) => {
          shared.push(data)
        },
      })
    })
    await openLoggedIn(page, paths.inviteFriends)
    await expect(page.getByTestId('invite-code')).toHaveText('DEMO88')
    await page.getByRole('button', { name: '分享给好友' }).click()
    await expect
      .poll(() =>
        page.evaluate(() => (window as unknown as { __shared: { url: string; text: string }[] }).__shared),
      )
      .toEqual([
        expect.objectContaining({
          url: expect.stringContaining('DEMO88'),
          text: expect.stringContaining('DEMO88'),
        }),
      ])
    await expect(page).toHaveURL(/\/invite-friends$/)
  })

  test.describe('on a phone', () => {
    test.use({
      userAgent:
        'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
    })

    test('联系在线客服 falls back to the web chat in a new tab, and the app stays on 客服', async ({
      page,
      context,
    }) => {
      await context.route('https://t.me/**', (route) =>
        route.fulfill({ contentType: 'text/html', body: '<p>chat</p>' }),
      )
      await page.goto(paths.service)
      await expect(page.getByRole('button', { name: '联系在线客服' })).toBeEnabled()
      const popup = page.waitForEvent('popup', { timeout: 6_000 })
      await page.getByRole('button', { name: '联系在线客服' }).click()
      await expect(await popup).toHaveURL(/^https:\/\/t\.me\//)
      await expect(page).toHaveURL(/\/service$/)
    })
  })

  test('a time-out refusal at login is a dialog with its end and a way to 暂停期提现', async ({ page }) => {
    const player = await registerPlayer()
    const { token } = await login(player.phone, player.password)
    await api(startExclusion, { token, body: { period: '24h', password: player.password } })
    await page.goto(paths.login)
    await page.getByPlaceholder('请输入手机号').fill(player.phone)
    await page.getByPlaceholder('请输入密码').fill(player.password)
    await page.getByRole('button', { name: '登录' }).click()
    const dialog = page.getByRole('dialog')
    await expect(dialog.getByTestId('refusal-dialog')).toContainText('您已选择暂停游戏，至')
    await expect(dialog).toContainText(/暂停结束：\d{4}-\d{2}-\d{2} \d{2}:\d{2}（北京时间）/)
    // Shown until the player closes it, not for two seconds.
    await page.waitForTimeout(2_500)
    await expect(dialog.getByTestId('refusal-dialog')).toBeVisible()
    await dialog.getByRole('button', { name: '暂停期提现' }).click()
    await expect(page).toHaveURL(/\/protection\/withdraw$/)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('暂停期提现')
  })

  test('logging in from 我的 comes back to 我的', async ({ page }) => {
    await page.goto(paths.mine)
    await page.getByRole('link', { name: '登录' }).click()
    await expect(page).toHaveURL(/\/login$/)
    await page.getByPlaceholder('请输入手机号').fill(DEMO.phone)
    await page.getByPlaceholder('请输入密码').fill(DEMO.password)
    await page.getByRole('button', { name: '登录' }).click()
    await expect(page).toHaveURL(/\/mine$/)
    await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('未登录')
  })

  test('logging in from a game page comes back to the game', async ({ page }) => {
    await page.goto(paths.gameFastThree)
    await page.locator('[data-bet-type="big"]').click()
    await page.getByTestId('bet-bar').getByRole('button', { name: '投注' }).click()
    await expect(page).toHaveURL(/\/login$/)
    await page.getByPlaceholder('请输入手机号').fill(DEMO.phone)
    await page.getByPlaceholder('请输入密码').fill(DEMO.password)
    await page.getByRole('button', { name: '登录' }).click()
    await expect(page).toHaveURL(/\/games\/kuaisan$/)
  })
})

test.describe('layout at 320 px', () => {
  test.use({ viewport: { width: 320, height: 640 } })

  test('the login form’s heading, card and button share the page’s edges', async ({ page }) => {
    await page.goto(paths.login)
    const edges = await page.evaluate(() =>
      ['.login-page__welcome', '.adm-form .adm-list-body', '.adm-form-footer .adm-button'].map((selector) => {
        const r = document.querySelector(selector)?.getBoundingClientRect()
        return r ? [Math.round(r.left), Math.round(r.right)] : null
      }),
    )
    expect(new Set(edges.map((e) => JSON.stringify(e))).size, JSON.stringify(edges)).toBe(1)
  })

  test('a long page title ends in an ellipsis', async ({ page }) => {
    await page.goto(`${paths.verify}?game=saiche&round=1`)
    const title = page.getByRole('heading', { level: 1 })
    await expect(title).toBeVisible()
    const style = await title.evaluate((el) => {
      const s = getComputedStyle(el)
      return { overflow: s.overflow, textOverflow: s.textOverflow, whiteSpace: s.whiteSpace }
    })
    expect(style).toEqual({ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' })
  })

  test('the stake field shows its whole placeholder', async ({ page }) => {
    await page.goto(paths.gameRacing)
    const input = page.getByRole('textbox', { name: '每注金额' })
    await expect(input).toHaveAttribute('placeholder', /每注/)
    const { needed, width } = await input.evaluate((el) => {
      const field = el as HTMLInputElement
      const s = getComputedStyle(field)
      const ctx = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D
      ctx.font = `${s.fontWeight} ${s.fontSize} ${s.fontFamily}`
      return { needed: ctx.measureText(field.placeholder).width, width: field.clientWidth }
    })
    expect(needed).toBeLessThanOrEqual(width)
  })

  test('the bet-history filters take a small part of the screen', async ({ page }) => {
    await openLoggedIn(page, paths.betHistory)
    const filters = page.locator('.games-filters')
    await expect(filters).toBeVisible()
    const height = (await filters.boundingBox())?.height ?? Number.POSITIVE_INFINITY
    expect(height).toBeLessThan(640 / 8)
  })
})
