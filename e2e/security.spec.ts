import { DEMO, login, registerPlayer } from './support/emu'
import { expect, openLoggedIn, test, typeOnKeyboard } from './support/test'

test('changes the login password; the new one logs in', async ({ page }) => {
  const player = await registerPlayer('first1234')
  await openLoggedIn(page, '/pdchange', player)
  const form = page.locator('form:visible')
  await form.getByPlaceholder('请输入原密码').fill(player.password)
  await form.getByPlaceholder('请输入新密码').fill('second1234')
  await form.getByPlaceholder('请再次输入新密码').fill('second1234')
  await form.getByRole('button', { name: '确认修改' }).click()
  await expect(page.locator('.adm-toast-main')).toHaveText('登录密码已修改')
  await expect(page).toHaveURL(/\/securitycenter$/)
  await expect((await login(player.phone, 'second1234')).token).toBeTruthy()
})

test('a too-weak new password is refused with the contract’s own message before any call', async ({
  page,
}) => {
  await openLoggedIn(page, '/pdchange', await registerPlayer())
  const form = page.locator('form:visible')
  await form.getByPlaceholder('请输入原密码').fill('whatever1')
  await form.getByPlaceholder('请输入新密码').fill('short1')
  await form.getByRole('button', { name: '确认修改' }).click()
  await expect(page.getByText('密码长度不能少于8位')).toBeVisible()
})

test('sets the 6-digit payment password on the number keyboard', async ({ page }) => {
  const player = await registerPlayer('paypass123')
  await openLoggedIn(page, '/paypdchange', player)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('设置支付密码')
  await page.getByPlaceholder('请输入登录密码').fill(player.password)

  await page.getByRole('button', { name: '支付密码', exact: true }).click()
  await typeOnKeyboard(page, '246810')
  await page.getByRole('button', { name: '确认支付密码', exact: true }).click()
  await typeOnKeyboard(page, '246810')
  await page.getByRole('button', { name: '确认', exact: true }).click()
  await expect(page.locator('.adm-toast-main')).toHaveText('支付密码已设置')
  await expect(page).toHaveURL(/\/securitycenter$/)
  await expect(page.locator('.adm-list-item', { hasText: '支付密码' })).toContainText('已设置')
})

test('a wrong login password is refused by the server and shown', async ({ page }) => {
  await openLoggedIn(page, '/paypdchange', { phone: DEMO.phone, password: DEMO.password })
  await page.getByPlaceholder('请输入登录密码').fill('not-the-password1')
  for (const field of ['支付密码', '确认支付密码']) {
    await page.getByRole('button', { name: field, exact: true }).click()
    await typeOnKeyboard(page, '135790')
  }
  await page.getByRole('button', { name: '确认', exact: true }).click()
  await expect(page.locator('.adm-toast-main')).toContainText('登录密码错误，还可尝试')
  await expect(page).toHaveURL(/\/paypdchange$/)
})
