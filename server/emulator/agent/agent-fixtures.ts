import { z } from 'zod'
import { toMicro } from '../../../shared/money'
import { loadFixture } from '../fixtures'
import { checkTiers, type RebateTier } from './rebate'

const amount = z.string().regex(/^\d+(\.\d{1,6})?$/)
const rateBp = z.number().int().min(0).max(10_000)

export const agentFixtureSchema = z
  .strictObject({
    /** Appended to the site's origin, then the invite code. */
    invite_path: z.string().startsWith('/'),
    rebate_tiers: z.array(z.strictObject({ min_turnover: amount, rate_bp: rateBp })).min(1),
    /** Level 1 = direct invitees; levels beyond the list earn no commission. */
    commission_levels: z.array(z.strictObject({ level: z.number().int().min(1), rate_bp: rateBp })).max(10),
    claim_window_days: z.number().int().min(1).max(31),
  })
  .superRefine((f, ctx) => {
    const problem = checkTiers(
      f.rebate_tiers.map((t) => ({ minTurnoverMicro: toMicro(t.min_turnover), rateBp: t.rate_bp })),
    )
    if (problem) ctx.addIssue({ code: 'custom', path: ['rebate_tiers'], message: problem })
    f.commission_levels.forEach((l, i) => {
      if (l.level !== i + 1)
        ctx.addIssue({ code: 'custom', path: ['commission_levels', i, 'level'], message: `must be ${i + 1}` })
    })
  })

export interface AgentSettings {
  readonly invitePath: string
  readonly tiers: readonly RebateTier[]
  /** Index 0 is level 1. */
  readonly levelRatesBp: readonly number[]
  readonly claimWindowDays: number
}

export function loadAgentSettings(fixturesDir: string): AgentSettings {
  const f = loadFixture(fixturesDir, 'agent.json', agentFixtureSchema)
  return {
    invitePath: f.invite_path,
    tiers: f.rebate_tiers.map((t) => ({ minTurnoverMicro: toMicro(t.min_turnover), rateBp: t.rate_bp })),
    levelRatesBp: f.commission_levels.map((l) => l.rate_bp),
    claimWindowDays: f.claim_window_days,
  }
}
