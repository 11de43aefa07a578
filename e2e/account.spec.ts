import { getBalance } from '@shared/contract/account'
import { STORAGE_KEY } from '@shared/storage-keys'
import { api } from './support/api'
import { smsCode, uniquePhone } from './support/emu'
import { expect, openLoggedIn, storedKeys, test } from './support/test'

test('register and log in, see the balance, hide it, keep it hidden after reload, log out', async ({
  page,
  pageErrors,
}) => {
  const phone = uniquePhone()
  const password = 'plum-kite-8086'
  await page.goto('/login?isreg=1')
  const form = page.locator('.adm-tabs-content:visible, form:visible').last()
  await form.getByPlaceholder('请输入手机号').fill(phone)
  await form.getByRole('button', { name: '获取验证码' }).click()
  await expect(form.getByRole('button', { name: /秒后重发/ })).toBeVisible()
  await form.getByPlaceholder('6位数字').fill(await smsCode(phone))
  await form.getByPlaceholder('请设置登录密码').fill(password)
  await form.getByPlaceholder('请再次输入密码').fill(password)
  await form.getByRole('button', { name: '注册', exact: true }).click()

  await expect(page).toHaveURL(/\/home$/)
  const balance = page.getByTestId('balance')
  await expect(balance).toHaveText(/^\d+\.\d{2}USDT$/)
  const keys = await storedKeys(page)
  expect(keys[STORAGE_KEY.token]).toBeTruthy()
  expect(JSON.parse(keys[STORAGE_KEY.loginData] ?? '{}')).toHaveProperty('player_id')
  expect(JSON.parse(keys[STORAGE_KEY.userInfo] ?? '{}')).toHaveProperty('player_id')

  await page.getByRole('button', { name: '隐藏金额' }).click()
  await expect(balance).toHaveText('****USDT')
  expect((await storedKeys(page))[STORAGE_KEY.hideAmount]).toBe('1')
  await page.reload()
  await expect(page.getByTestId('balance')).toHaveText('****USDT')
  await expect(page.getByRole('button', { name: '显示金额' })).toBeVisible()

  await page.getByText('我的', { exact: true }).click()
  await expect(page).toHaveURL(/\/mine$/)
  await page.getByRole('button', { name: '退出登录' }).click()
  await page.locator('.adm-dialog').getByText('退出', { exact: true }).click()
  await expect(page).toHaveURL(/\/login$/)
  const after = await storedKeys(page)
  expect(after[STORAGE_KEY.token]).toBeNull()
  expect(after[STORAGE_KEY.userInfo]).toBeNull()
  expect(after[STORAGE_KEY.loginData]).toBeNull()
  expect(after[STORAGE_KEY.isLogin]).toBeNull()
  expect(after[STORAGE_KEY.hideAmount]).toBe('1')
  expect(pageErrors).toEqual([])
})

test('logs in with the login form and shows the balance the server holds', async ({ page }) => {
  await page.goto('/login')
  const form = page.locator('form:visible')
  await form.getByPlaceholder('请输入手机号').fill('13800138000')
  await form.getByPlaceholder('请输入密码').fill('demo1234')
  await form.getByRole('button', { name: '登录', exact: true }).click()
  await expect(page).toHaveURL(/\/home$/)
  const token = (await storedKeys(page))[STORAGE_KEY.token] ?? ''
  const loginData = JSON.parse((await storedKeys(page))[STORAGE_KEY.loginData] ?? '{}') as {
    player_id: number
  }
  const { balance } = await api(getBalance, { token, query: { player_id: loginData.player_id } })
  await expect(page.getByTestId('balance')).toHaveText(`${balance}USDT`)
})

test('a wrong password shows the server message and stays on the login page', async ({ page }) => {
  await page.goto('/login')
  const form = page.locator('form:visible')
  await form.getByPlaceholder('请输入手机号').fill('13800138000')
  await form.getByPlaceholder('请输入密码').fill('wrong-password1')
  await form.getByRole('button', { name: '登录', exact: true }).click()
  await expect(page.locator('.adm-toast-main')).toHaveText('账号或密码错误')
  await expect(page).toHaveURL(/\/login$/)
})

test('mine shows the player and refreshes the balance; sound and theme switches save', async ({ page }) => {
  const data = await openLoggedIn(page, '/mine')
  await expect(page.getByText(`ID ${data.player_id}`, { exact: false })).toBeVisible()
  await expect(page.getByTestId('balance')).toHaveText(/^\d+\.\d{2}USDT$/)
  await page.getByRole('switch', { name: '声音' }).click()
  expect((await storedKeys(page))[STORAGE_KEY.openVoice]).toBe('0')
})
