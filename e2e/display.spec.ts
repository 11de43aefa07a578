import { NOTICE_SCROLL_DELAY_MS } from '@client/features/home/notice-line'
import { STORAGE_KEY } from '@shared/storage-keys'
import { expect, storedKeys, test } from './support/test'

const rootFontPx = (page: import('@playwright/test').Page) =>
  page.evaluate(() => Number.parseFloat(getComputedStyle(document.documentElement).fontSize))

test('root font size is width / 375 × 33 at 320, 375 and 414, and follows a resize', async ({ page }) => {
  for (const width of [320, 375, 414]) {
    await page.setViewportSize({ width, height: 800 })
    await page.goto('/home')
    await expect.poll(() => rootFontPx(page)).toBeCloseTo((width / 375) * 33, 2)
  }
  await page.setViewportSize({ width: 320, height: 800 })
  await expect.poll(() => rootFontPx(page)).toBeCloseTo(28.16, 2)
  await page.setViewportSize({ width: 390, height: 800 })
  await expect.poll(() => rootFontPx(page)).toBeCloseTo(34.32, 2)
})

test('the theme toggles, is saved, and survives a reload', async ({ page }) => {
  await page.goto('/mine')
  const html = page.locator('html')
  await expect(html).toHaveAttribute('data-theme', 'light')
  const toggle = page.getByRole('switch', { name: '深色模式' })
  await toggle.click()
  await expect(html).toHaveAttribute('data-theme', 'dark')
  expect((await storedKeys(page))[STORAGE_KEY.theme]).toBe('dark')
  await page.reload()
  await expect(html).toHaveAttribute('data-theme', 'dark')
  await expect(page.getByRole('switch', { name: '深色模式' })).toHaveAttribute('aria-checked', 'true')
  await page.getByRole('switch', { name: '深色模式' }).click()
  await expect(html).toHaveAttribute('data-theme', 'light')
  await page.reload()
  await expect(html).toHaveAttribute('data-theme', 'light')
  expect((await storedKeys(page))[STORAGE_KEY.theme]).toBe('light')
})

test('the tab bar follows the URL on clicks, back, forward and deep links; top-up is 84 × 44', async ({
  page,
}) => {
  const active = (name: string) => page.locator('.adm-tab-bar-item-active').getByText(name, { exact: true })
  await page.goto('/home')
  await expect(active('首页')).toBeVisible()
  const topUp = page.getByRole('img', { name: '充值' })
  const box = await topUp.boundingBox()
  expect(box?.width).toBe(84)
  expect(box?.height).toBe(44)

  await page.getByText('我的', { exact: true }).click()
  await expect(page).toHaveURL(/\/mine$/)
  await expect(active('我的')).toBeVisible()
  await page.getByText('活动', { exact: true }).click()
  await expect(page).toHaveURL(/\/activity$/)
  await page.goBack()
  await expect(page).toHaveURL(/\/mine$/)
  await expect(active('我的')).toBeVisible()
  await page.goBack()
  await expect(active('首页')).toBeVisible()
  await page.goForward()
  await expect(active('我的')).toBeVisible()

  await page.goto('/service')
  await expect(active('客服')).toBeVisible()

  await topUp.click()
  await expect(page).toHaveURL(/\/hometopup$/)
  await expect(page.getByRole('heading', { name: '充值', level: 1 })).toBeVisible()
})

test('zoom is blocked while taps, scrolling and inputs keep working', async ({ page }) => {
  await page.goto('/login')
  const viewport = await page.locator('meta[name="viewport"]').getAttribute('content')
  expect(viewport).toContain('user-scalable=no')
  expect(viewport).toContain('maximum-scale=1')
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).touchAction)).toBe(
    'pan-x pan-y',
  )

  const phone = page.locator('form:visible').getByPlaceholder('请输入手机号')
  await phone.tap()
  await phone.tap()
  await page.keyboard.type('13800138000')
  await expect(phone).toHaveValue('13800138000')
  expect(await page.evaluate(() => window.visualViewport?.scale ?? 1)).toBe(1)

  // Two quick taps on a tab: the zoom guard cancels the second tap's default and delivers its click.
  await page.goto('/home')
  const mine = page.getByText('我的', { exact: true })
  await mine.tap()
  await expect(page).toHaveURL(/\/mine$/)
  const home = page.getByText('首页', { exact: true })
  await home.tap()
  await home.tap()
  await expect(page).toHaveURL(/\/home$/)
  expect(await page.evaluate(() => window.visualViewport?.scale ?? 1)).toBe(1)
})

test('safe-area insets are applied to the tab bar and page bars', async ({ page }) => {
  await page.goto('/home')
  const padding = await page.evaluate(() => {
    const probe = document.createElement('div')
    probe.style.paddingTop = 'var(--safe-top)'
    document.body.append(probe)
    const value = getComputedStyle(probe).paddingTop
    probe.remove()
    return value
  })
  expect(padding).toBe('0px')
  await expect(page.locator('.adm-safe-area-position-bottom')).toHaveCount(1)
})

test('with reduced motion the home notice line stands still and shows its whole text', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' })
  await page.setViewportSize({ width: 320, height: 800 })
  await page.clock.install()
  await page.goto('/home')
  const box = page.locator('.notice-line__box')
  const text = page.locator('.notice-line__text')
  await expect(text).not.toBeEmpty()
  // Past the pause after which a line too long for the bar starts to scroll.
  await page.clock.runFor(NOTICE_SCROLL_DELAY_MS + 500)
  expect(await text.evaluate((el) => getComputedStyle(el).transform)).toBe('none')
  // The whole notice is inside the bar: it wraps instead of running off its edge.
  const [boxWidth, textWidth] = await Promise.all([
    box.evaluate((el) => el.getBoundingClientRect().width),
    text.evaluate((el) => el.getBoundingClientRect().width),
  ])
  expect(textWidth).toBeLessThanOrEqual(boxWidth + 0.5)
})
