import { paths } from '@client/config/paths'
import { expect, openLoggedIn, test, testOnOnePage } from './support/test'

/** Every route (docs/product.md#pages) renders a titled page without an uncaught error, logged out and in. */

const TITLES: Record<string, string> = {
  [paths.home]: '哈希游戏',
  [paths.activity]: '活动',
  [paths.service]: '客服',
  [paths.topUp]: '充值',
  [paths.withdraw]: '提现',
  [paths.login]: '登录',
  [paths.securityCenter]: '安全中心',
  [paths.passwordChange]: '修改登录密码',
  [paths.gameFastThree]: '快三',
  [paths.activityDetail]: '活动详情',
}

/** A real value for each route parameter, so a page with one is opened as a player reaches it. */
const PARAMS: Record<string, string> = { game: 'qukuai' }
const filled = (path: string) =>
  path.replace(/:([a-z_]+)/gi, (_m, name: string) => {
    const value = PARAMS[name]
    if (!value) throw new Error(`no value for the route parameter :${name} of ${path}: add one to PARAMS`)
    return value
  })

const routes = Object.values(paths).filter((path) => path !== paths.root)

for (const route of routes) {
  const path = filled(route)
  testOnOnePage(`${path} renders`, async ({ page, pageErrors }) => {
    await page.goto(path)
    const heading = page.getByRole('heading', { level: 1 }).first()
    await expect(heading).toBeVisible()
    const title = TITLES[path]
    if (title) await expect(heading).toHaveText(title)
    await expect(page.getByText('页面不存在')).toHaveCount(0)
    await expect(page.getByText('页面出错了')).toHaveCount(0)
    // A page opened with a real game finds it.
    if (route.includes(':game')) await expect(page.getByText('没有这个游戏')).toHaveCount(0)
    expect(pageErrors).toEqual([])
  })
}

test('the root redirects to /home', async ({ page }) => {
  await page.goto('/')
  await expect(page).toHaveURL(/\/home$/)
  await expect(page.getByRole('navigation', { name: '主导航' })).toBeVisible()
})

test('an unknown path shows the not-found page with a way home', async ({ page, pageErrors }) => {
  await page.goto('/no/such/page')
  await expect(page.getByRole('heading', { name: '页面不存在' })).toBeVisible()
  await page.getByRole('link', { name: '返回首页' }).click()
  await expect(page).toHaveURL(/\/home$/)
  expect(pageErrors).toEqual([])
})

test('the account pages render for a logged-in player', async ({ page, pageErrors }) => {
  await openLoggedIn(page, paths.securityCenter)
  const passwordItem = page.locator('.adm-list-item', { hasText: '用于登录账户' })
  await expect(passwordItem).toBeVisible()
  await passwordItem.click()
  await expect(page).toHaveURL(/\/pdchange$/)
  await expect(page.getByPlaceholder('请输入原密码')).toBeVisible()
  await page.goto(paths.payPasswordChange)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/支付密码/)
  await expect(page.locator('.adm-passcode-input')).toHaveCount(1)
  await page.goto(paths.mine)
  await expect(page.getByRole('button', { name: '退出登录' })).toBeVisible()
  expect(pageErrors).toEqual([])
})

test('a page whose code fails to load reloads once, then shows a clear error page', async ({
  page,
  pageErrors,
}) => {
  await page.goto('/home')
  await expect(page.getByRole('navigation', { name: '主导航' })).toBeVisible()
  let blocked = 0
  await page.route(/\/assets\/mine-page-[^/]+\.js$/, (route) => {
    blocked += 1
    return route.abort()
  })
  await page.getByText('我的', { exact: true }).click()
  await expect(page.getByRole('heading', { name: '页面加载失败' })).toBeVisible({ timeout: 15_000 })
  await expect(page.getByRole('button', { name: '重新加载' })).toBeVisible()
  expect(blocked).toBeGreaterThanOrEqual(2)
  await page.unroute(/\/assets\/mine-page-[^/]+\.js$/)
  await page.getByRole('button', { name: '重新加载' }).click()
  await expect(page.getByRole('switch', { name: '深色模式' })).toBeVisible()
  expect(pageErrors).toEqual([])
})
