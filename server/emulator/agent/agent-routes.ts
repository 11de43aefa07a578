import type { Config } from '@server/config'
import { contractRoute } from '@server/http/contract-route'
import {
  agentChildSearch,
  agentInfo,
  agentQrcode,
  agentRebateConfig,
  agentTurnover,
} from '@shared/contract/agent'
import { rebateClaim, rebateHistory, rebateSummary } from '@shared/contract/content'
import type { FastifyInstance } from 'fastify'
import type { AgentService } from './agent-service'

/** The invite programme: team, turnover, QR code, rebate config, and the rebate claim. */
export async function agentRoutes(
  app: FastifyInstance,
  opts: { config: Config; agent: AgentService },
): Promise<void> {
  const { config, agent: service } = opts

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
