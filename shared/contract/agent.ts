import { z } from 'zod'
import { defineEndpoint } from './endpoint'
import { dateParam, idParam, intParam, moneyString, paged, pageParams, timestamp } from './fields'

/**
 * The invite and agent programme (docs/product.md#calls). The upstream documents the paths only, so every field is
 * ours. Turnover means the stakes of settled bets that won or lost (a draw is not turnover),
 * counted on the local day the bet settled.
 */

/** A rate in basis points (1 bp = 0.01%), with the same rate as display text such as "0.50%". */
const rateFields = {
  rate_bp: z.number().int().min(0).max(10_000),
  rate: z.string().describe('The rate as a percentage with two places, e.g. "0.50%"'),
}

export const agentInfo = defineEndpoint({
  id: 'agentInfo',
  method: 'GET',
  path: '/api/agent/info',
  summary: "The player's invite code and link, team sizes, team turnover and commission",
  tag: 'agent',
  source: 'spec',
  fields: 'ours',
  auth: true,
  data: z.object({
    player_id: z.number().int(),
    invite_code: z.string(),
    /** Opens registration with the code filled in. */
    invite_link: z.string(),
    /** Players the player invited. */
    direct_count: z.number().int(),
    /** Everyone below the player, all levels. */
    team_count: z.number().int(),
    /** Turnover of the whole team (not the player's own) today and ever. */
    today_team_turnover: moneyString,
    total_team_turnover: moneyString,
    /** Commission already claimed, ever. */
    commission_total: moneyString,
    /** Commission accrued on today's team turnover (claimed or not). */
    commission_today: moneyString,
    /** Commission waiting to be claimed on the backwater page. */
    commission_claimable: moneyString,
    /** Team members per level: level 1 is direct. */
    levels: z.array(z.object({ level: z.number().int(), count: z.number().int(), ...rateFields })),
  }),
})

export const agentQrcode = defineEndpoint({
  id: 'agentQrcode',
  method: 'GET',
  path: '/api/agent/qrcode',
  summary: 'The invite link as a QR code: a PNG data URL the client shows in an <img> and can save',
  tag: 'agent',
  source: 'spec',
  fields: 'ours',
  auth: true,
  query: z.strictObject({
    /** Edge length in pixels; 256 by default. */
    size: intParam(128, 1024).optional(),
  }),
  data: z.object({
    invite_code: z.string(),
    invite_link: z.string(),
    /** `data:image/png;base64,...` */
    image: z.string().startsWith('data:image/png;base64,'),
    size: z.number().int(),
  }),
})

export const turnoverMemberSchema = z.object({
  player_id: z.number().int(),
  nickname: z.string(),
  /** The phone with its middle masked. */
  phone: z.string(),
  /** 1 = invited by the player, 2 = invited by a direct member, and so on. */
  level: z.number().int(),
  turnover: moneyString,
  bet_count: z.number().int(),
})

export const agentTurnover = defineEndpoint({
  id: 'agentTurnover',
  method: 'GET',
  path: '/api/agent/liusui_new',
  summary: "The team's turnover per day and per member between two dates (default: the last 7 days)",
  tag: 'agent',
  source: 'spec',
  fields: 'ours',
  auth: true,
  /** A start after the end, or a range over 31 days, is refused by the service (code 0). */
  query: z.strictObject({
    /** Inclusive local dates; the range may span at most 31 days. */
    start_date: dateParam.optional(),
    end_date: dateParam.optional(),
    /** Only this team member (must be in the player's team). */
    member_id: idParam.optional(),
    /** Only members of this level (1 = direct). */
    level: intParam(1, 10).optional(),
    ...pageParams,
  }),
  data: z.object({
    start_date: z.string(),
    end_date: z.string(),
    /** Team turnover over the whole range (after the member and level filters). */
    total_turnover: moneyString,
    /** Commission those turnovers earn the player, by the level rates. */
    total_commission: moneyString,
    /** Every day of the range, newest first, zero days included. */
    days: z.array(
      z.object({
        date: z.string(),
        turnover: moneyString,
        commission: moneyString,
        bet_count: z.number().int(),
        /** Members who had turnover that day. */
        active_members: z.number().int(),
      }),
    ),
    /** Members with turnover in the range, highest first. */
    members: paged(turnoverMemberSchema),
  }),
})

export const teamMemberSchema = z.object({
  player_id: z.number().int(),
  nickname: z.string(),
  phone: z.string(),
  level: z.number().int(),
  /** Who invited this member (the player, or another member of the team). */
  inviter_id: z.number().int(),
  joined_at: timestamp,
  /** Players this member invited. */
  direct_count: z.number().int(),
  today_turnover: moneyString,
  total_turnover: moneyString,
})

export const agentChildSearch = defineEndpoint({
  id: 'agentChildSearch',
  method: 'GET',
  path: '/api/agent/childsearch',
  summary:
    "The player's team, or the members whose id or nickname matches the keyword; never beyond the team",
  tag: 'agent',
  source: 'spec',
  fields: 'ours',
  auth: true,
  query: z.strictObject({
    /** A player id (exact) or part of a nickname; empty lists the whole team. */
    keyword: z.string().trim().max(32, { error: '关键词不能超过32个字符' }).optional(),
    level: intParam(1, 10).optional(),
    ...pageParams,
  }),
  data: paged(teamMemberSchema),
})

export const rebateTierSchema = z.object({
  /** 1-based tier number. */
  tier: z.number().int(),
  /** The day's turnover at which this tier starts (inclusive). */
  min_turnover: moneyString,
  /** Where the next tier starts; null for the top tier. */
  max_turnover: moneyString.nullable(),
  ...rateFields,
})

export const agentRebateConfig = defineEndpoint({
  id: 'agentRebateConfig',
  method: 'GET',
  path: '/api/agent/rebateconfig',
  summary: 'Rebate tiers by daily turnover and the commission rate of each team level',
  tag: 'agent',
  source: 'spec',
  fields: 'ours',
  auth: false,
  data: z.object({
    /**
     * A day's own turnover falls into one tier, and that tier's rate applies to the whole of it.
     * Below the first tier's minimum there is no rebate.
     */
    tiers: z.array(rebateTierSchema),
    /** Commission on the turnover of team members at each level, per day. */
    commission_levels: z.array(z.object({ level: z.number().int(), ...rateFields })),
    /** Unclaimed rebate and commission of this many days (today included) can be claimed. */
    claim_window_days: z.number().int(),
  }),
})

export const AGENT_ENDPOINTS = [
  agentInfo,
  agentQrcode,
  agentTurnover,
  agentChildSearch,
  agentRebateConfig,
] as const
