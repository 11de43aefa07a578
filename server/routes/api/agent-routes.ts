import type { FastifyInstance } from 'fastify'
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

  /** Where invite links point: PUBLIC_URL, never the request's Host (a client could set it to any site). */
  const origin = new URL(config.PUBLIC_URL).origin

  contractRoute(app, agentInfo, ({ player }) => service.info(player.id, origin))
  contractRoute(app, agentQrcode, ({ player, query }) => service.qrcode(player.id, origin, query.size))
  contractRoute(app, agentTurnover, ({ player, query }) => service.turnover(player.id, query))
  contractRoute(app, agentChildSearch, ({ player, query }) => service.search(player.id, query))
  contractRoute(app, agentRebateConfig, () => service.rebateConfig())

  contractRoute(app, rebateSummary, ({ player }) => service.summary(player.id))
  contractRoute(app, rebateClaim, ({ player }) => service.claim(player.id))
  contractRoute(app, rebateHistory, ({ player, query }) => service.history(player.id, query))
}
