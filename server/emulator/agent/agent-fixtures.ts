import { toMicro } from '@shared/money'
import { z } from 'zod'
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
    /** Players seeded below the demo player, so the team pages have someone in them. */
    demo_team: z
      .array(
        z.strictObject({
          phone: z.string().regex(/^\d{6,15}$/),
          password: z.string().min(8),
          nickname: z.string().min(1),
          invite_code: z.string().regex(/^[A-Z0-9]{6,10}$/),
          /** Invite code of a player seeded earlier (players.json or above in this list). */
          inviter: z.string(),
        }),
      )
      .default([]),
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

export const loadAgentFixture = (fixturesDir: string) =>
  loadFixture(fixturesDir, 'agent.json', agentFixtureSchema)

export function loadAgentSettings(fixturesDir: string): AgentSettings {
  const f = loadAgentFixture(fixturesDir)
  return {
    invitePath: f.invite_path,
    tiers: f.rebate_tiers.map((t) => ({ minTurnoverMicro: toMicro(t.min_turnover), rateBp: t.rate_bp })),
    levelRatesBp: f.commission_levels.map((l) => l.rate_bp),
    claimWindowDays: f.claim_window_days,
  }
}
