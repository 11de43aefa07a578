import type { Config } from '@server/config'
import { contractRoute } from '@server/http/contract-route'
import { limitOf } from '@server/http/rate-limits'
import {
  acknowledgeRealityCheck,
  excludedAccount,
  excludedSetup,
  excludedSms,
  excludedWithdraw,
  netPosition,
  protectionLimits,
  realityCheck,
  setProtectionLimit,
  setRealityCheck,
  startExclusion,
} from '@shared/contract/protection'
import { toMicro } from '@shared/money'
import type { FastifyInstance } from 'fastify'
import type { ProtectionService } from './protection-service'

/** Player protection: limits, the reality check, time-out and self-exclusion, the net position. */
export async function protectionRoutes(
  app: FastifyInstance,
  opts: { config: Config; protection: ProtectionService },
): Promise<void> {
  const { config, protection: service } = opts

  contractRoute(app, protectionLimits, ({ player }) => service.limits(player.id))
  contractRoute(app, setProtectionLimit, ({ player, body }) =>
    service.setLimit(player.id, body.kind, body.period, body.amount === '' ? null : toMicro(body.amount)),
  )

  contractRoute(app, realityCheck, ({ player }) => service.realityCheck(player.id, player.token))
  contractRoute(app, setRealityCheck, ({ player, body }) =>
    service.setRealityCheck(player.id, player.token, body.interval_minutes),
  )
  contractRoute(app, acknowledgeRealityCheck, ({ player }) => service.acknowledge(player.id, player.token))

  contractRoute(
    app,
    startExclusion,
    ({ player, body }) => service.startExclusion(player.id, body.period, body.password),
    limitOf(config, startExclusion.id),
  )
  contractRoute(
    app,
    excludedWithdraw,
    ({ body }) =>
      service.excludedWithdraw({
        phone: body.phone,
        password: body.password,
        wallet_id: body.wallet_id,
        amountMicro: toMicro(body.amount),
        pay_password: body.pay_password,
      }),
    limitOf(config, excludedWithdraw.id),
  )

  // The rest of the flow without a session, limited per address as login is.
  contractRoute(
    app,
    excludedAccount,
    ({ body }) => service.excludedAccount(body.phone, body.password),
    limitOf(config, excludedAccount.id),
  )
  contractRoute(
    app,
    excludedSms,
    ({ body }) => service.excludedSms(body.phone, body.password),
    limitOf(config, excludedSms.id),
  )
  contractRoute(
    app,
    excludedSetup,
    ({ body }) => service.excludedSetup(body),
    limitOf(config, excludedSetup.id),
  )

  contractRoute(app, netPosition, ({ player, query }) =>
    service.netPosition(player.id, query.start_date, query.end_date),
  )
}
