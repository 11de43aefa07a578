import type { Config } from '@server/config'
import { invalidInput } from '@server/http/api-error'
import { contractRoute } from '@server/http/contract-route'
import { limitOf } from '@server/http/rate-limits'
import {
  changePassword,
  getBalance,
  login,
  logout,
  register,
  resetPassword,
  sendSms,
  updatePaymentPassword,
  userInfo,
} from '@shared/contract/account'
import type { FastifyInstance } from 'fastify'
import type { AccountService } from './account-service'

/** Accounts and sessions: SMS, register, login, logout, info, balance, passwords. */
export async function accountRoutes(
  app: FastifyInstance,
  opts: { config: Config; accounts: AccountService },
): Promise<void> {
  const { config, accounts: service } = opts

  contractRoute(
    app,
    sendSms,
    async ({ body, request }) => {
      if (body.purpose === 'register' || body.purpose === 'reset_password') {
        if (!body.phone) throw invalidInput('参数错误：phone 不能为空')
        return service.sendSms(body.phone, body.purpose)
      }
      // The payment-password code goes to the logged-in player's own phone.
      app.authenticate(request)
      const player = request.player && service.accounts.findById(request.player.id)
      if (!player) throw new Error('authenticated player vanished')
      return service.sendSms(player.phone, 'pay_password')
    },
    limitOf(config, sendSms.id),
  )

  contractRoute(app, register, ({ body }) => service.register(body), limitOf(config, register.id))

  contractRoute(app, login, ({ body }) => service.login(body.phone, body.password), limitOf(config, login.id))

  // Limited per client address like logging in (server/http/rate-limits.ts).
  contractRoute(
    app,
    resetPassword,
    ({ body }) => service.resetPassword(body),
    limitOf(config, resetPassword.id),
  )

  contractRoute(app, logout, ({ player }) => service.logout(player.token))

  contractRoute(app, userInfo, ({ player, query }) => service.userInfo(player.id, query.player_id))

  contractRoute(app, getBalance, ({ player, query }) => service.balance(player.id, query.player_id))

  contractRoute(app, changePassword, ({ player, body }) =>
    service.changePassword(player.id, player.token, body.old_password, body.new_password),
  )

  contractRoute(app, updatePaymentPassword, ({ player, body }) =>
    service.updatePaymentPassword(player.id, body),
  )
}
