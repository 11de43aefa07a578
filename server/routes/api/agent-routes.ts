import type { FastifyInstance, FastifyRequest } from 'fastify'
import {
  agentChildSearch,
  agentInfo,
  agentQrcode,
  agentRebateConfig,
  agentTurnover,
} from '../../../shared/contract/agent'
import { rebateClaim, rebateHistory, rebateSummary } from '../../../shared/contract/content'
import type { Config } from '../../config'
import { loadAgentSettings } from '../../emulator/agent/agent-fixtures'
import { agentSeeder } from '../../emulator/agent/agent-seeder'
import { AgentService } from '../../emulator/agent/agent-service'
import { contractRoute } from '../../http/contract-route'

/** The invite programme: team, turnover, QR code, rebate config, and the rebate claim. */
export async function agentRoutes(app: FastifyInstance, opts: { config: Config }): Promise<void> {
  const { config } = opts
  const { db, clock, ledger, accounts } = app.emu
  app.emu.addSeeder(agentSeeder)
  const service = new AgentService(db, clock, ledger, accounts, loadAgentSettings(config.FIXTURES_DIR))

  /** Where invite links point: the configured public origin, else the one the player reached us on. */
  const origin = (request: FastifyRequest) =>
    config.PUBLIC_URL ? new URL(config.PUBLIC_URL).origin : `${request.protocol}://${request.host}`

  contractRoute(app, agentInfo, ({ player, request }) => service.info(player.id, origin(request)))
  contractRoute(app, agentQrcode, ({ player, request, query }) =>
    service.qrcode(player.id, origin(request), query.size),
  )
  contractRoute(app, agentTurnover, ({ player, query }) => service.turnover(player.id, query))
  contractRoute(app, agentChildSearch, ({ player, query }) => service.search(player.id, query))
  contractRoute(app, agentRebateConfig, () => service.rebateConfig())

  contractRoute(app, rebateSummary, ({ player }) => service.summary(player.id))
  contractRoute(app, rebateClaim, ({ player }) => service.claim(player.id))
  contractRoute(app, rebateHistory, ({ player, query }) => service.history(player.id, query))
}
