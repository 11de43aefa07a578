import { userInfo } from '@shared/contract/account'
import { api } from './support/api'
import { emu, login, registerPlayer } from './support/emu'
import { expect, test } from './support/test'

test('忘记密码: a new password by SMS from the login page; the old session ends; logged in with the new one', async ({
  page,
  pageErrors,
}) => {
  const player = await registerPlayer('first-harbor-77')
  const old = await login(player.phone, player.password)

  await page.goto('/login')
  await page.getByRole('link', { name: '忘记密码？' }).click()
  await expect(page).toHaveURL(/\/forgot-password$/)
  await page.getByPlaceholder('请输入注册手机号').fill(player.phone)
  await page.getByRole('button', { name: '获取验证码' }).click()
  await expect(page.getByRole('button', { name: /秒后重发/ })).toBeVisible()
  const code = (await emu().sms(player.phone)).find((s) => s.purpose === 'reset_password')?.code ?? ''
  await page.getByPlaceholder('6位数字').fill(code)
  await page.getByPlaceholder('请设置新的登录密码').fill('second-lantern-88')
  await page.getByPlaceholder('请再次输入新密码').fill('second-lantern-88')
  await page.getByRole('button', { name: '重置密码' }).click()

  // Reset, log in and load home: three calls and a page, on a machine that may be busy.
  await expect(page).toHaveURL(/\/home$/, { timeout: 15_000 })
  await expect(page.getByTestId('balance')).toHaveText(/^\d+\.\d{2}USDT$/)
  // The session from before the reset is over; the new password works, the old one does not.
  await expect(api(userInfo, { query: { player_id: old.player_id }, token: old.token })).rejects.toThrow(
    /10001|登录已失效/,
  )
  await expect(login(player.phone, player.password)).rejects.toThrow()
  await login(player.phone, 'second-lantern-88')
  expect(pageErrors).toEqual([])
})
