import { controlRoute } from '@server/http/control-route'
import { clearUpstreamContract, getUpstreamContract } from '@shared/emu-contract/upstream'
import type { FastifyInstance } from 'fastify'
import type { Config } from '../../config'
import type { ContractMonitor } from '../../upstream/contract-monitor'

/** What proxy mode's contract monitor has counted (see ../../upstream/contract-monitor.ts). */
export async function upstreamControlRoutes(
  app: FastifyInstance,
  opts: { config: Config; monitor: ContractMonitor | null },
): Promise<void> {
  const { config, monitor } = opts
  controlRoute(app, getUpstreamContract, () => ({
    checked: monitor !== null,
    sample: config.UPSTREAM_CONTRACT_SAMPLE,
    nonConforming: config.UPSTREAM_NONCONFORMING,
    violations: monitor?.violations() ?? [],
  }))
  controlRoute(app, clearUpstreamContract, () => {
    const cleared = monitor?.violations().length ?? 0
    monitor?.clear()
    return { cleared }
  })
}
