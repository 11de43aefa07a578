import { z } from 'zod'
import { defineEndpoint } from './endpoint'
import {
  amountField,
  dateParam,
  idParam,
  intParam,
  moneyString,
  passwordField,
  payPasswordField,
  phoneField,
  smsCodeField,
  timestamp,
} from './fields'
import {
  getWithdrawConfig,
  listWallets,
  positiveAmountField,
  tronAddressField,
  walletLabelField,
} from './wallet'

/**
 * Player protection: deposit and loss limits, the reality check, time-out and self-exclusion, and
 * the net position. All ours (docs/player-protection.md describes the rules). A server that does
 * not answer them (an upstream without these endpoints) makes the client hide the section.
 */

export const LIMIT_KINDS = ['deposit', 'loss'] as const
export const limitKindSchema = z.enum(LIMIT_KINDS)
export type LimitKind = z.infer<typeof limitKindSchema>
export const LIMIT_KIND_LABEL: Record<LimitKind, string> = { deposit: '充值限额', loss: '亏损限额' }

/** Business periods: the China Standard Time day, the week from Monday, the calendar month. */
export const LIMIT_PERIODS = ['day', 'week', 'month'] as const
export const limitPeriodSchema = z.enum(LIMIT_PERIODS)
export type LimitPeriod = z.infer<typeof limitPeriodSchema>
export const LIMIT_PERIOD_LABEL: Record<LimitPeriod, string> = { day: '每日', week: '每周', month: '每月' }

/** A raised or removed limit waits this long before it applies; a lower one applies at once. */
export const LIMIT_COOLING_OFF_MS = 24 * 3_600_000

export const REALITY_CHECK_INTERVALS = [0, 15, 30, 60] as const
export type RealityCheckInterval = (typeof REALITY_CHECK_INTERVALS)[number]
export const realityCheckIntervalSchema = z.union(
  REALITY_CHECK_INTERVALS.map((n) => z.literal(n)),
  { error: '提醒间隔只能是 0、15、30 或 60 分钟' },
)

export const EXCLUSION_KINDS = ['timeout', 'self_exclusion'] as const
export const exclusionKindSchema = z.enum(EXCLUSION_KINDS)
export type ExclusionKind = z.infer<typeof exclusionKindSchema>
export const EXCLUSION_KIND_LABEL: Record<ExclusionKind, string> = {
  timeout: '暂停游戏',
  self_exclusion: '自我排除',
}

/** How long each choice lasts; which kind it belongs to decides what the player is told. */
export const EXCLUSION_PERIODS = {
  '24h': { kind: 'timeout', label: '24 小时', hours: 24 },
  '7d': { kind: 'timeout', label: '7 天', hours: 7 * 24 },
  '30d': { kind: 'timeout', label: '30 天', hours: 30 * 24 },
  '6w': { kind: 'timeout', label: '6 周', hours: 42 * 24 },
  '6m': { kind: 'self_exclusion', label: '6 个月', months: 6 },
  '1y': { kind: 'self_exclusion', label: '1 年', months: 12 },
  '5y': { kind: 'self_exclusion', label: '5 年', months: 60 },
} as const satisfies Record<
  string,
  { kind: ExclusionKind; label: string } & ({ hours: number } | { months: number })
>
export type ExclusionPeriod = keyof typeof EXCLUSION_PERIODS
export const exclusionPeriodSchema = z.enum(['24h', '7d', '30d', '6w', '6m', '1y', '5y'])

export const limitSchema = z.object({
  kind: limitKindSchema,
  period: limitPeriodSchema,
  /** The limit in force; null when none is set. */
  limit: moneyString.nullable(),
  /** Deposited (deposit) or net lost on bets (loss) in the current period. */
  used: moneyString,
  /** Left before the limit is reached; null without a limit. */
  remaining: moneyString.nullable(),
  /** When the current period ends and `used` starts again from zero. */
  resets_at: timestamp,
  /** A raise or removal waiting out its cooling-off; `limit` null means removal. */
  pending: z.object({ limit: moneyString.nullable(), effective_at: timestamp }).nullable(),
})
export type LimitView = z.infer<typeof limitSchema>

export const protectionLimits = defineEndpoint({
  id: 'protectionLimits',
  method: 'GET',
  path: '/api/protection/limits',
  summary: "The player's deposit and loss limits with what is used in each period",
  tag: 'protection',
  source: 'ours',
  fields: 'ours',
  auth: true,
  data: z.object({ list: z.array(limitSchema), now: timestamp }),
})

export const setProtectionLimit = defineEndpoint({
  id: 'setProtectionLimit',
  method: 'POST',
  path: '/api/protection/limits',
  summary: 'Set, lower, raise or remove a limit: lower applies at once, raise or removal after 24 h',
  tag: 'protection',
  source: 'ours',
  fields: 'ours',
  auth: true,
  encoding: 'urlencoded',
  body: z.strictObject({
    kind: limitKindSchema,
    period: limitPeriodSchema,
    /** Empty removes the limit (after the cooling-off). */
    amount: z.union([z.literal(''), amountField]),
  }),
  data: z.object({ limit: limitSchema, now: timestamp }),
})

export const realityCheckSchema = z.object({
  /** Minutes between reminders; 0 is off. */
  interval_minutes: realityCheckIntervalSchema,
  /** When this session began (its login). */
  session_started_at: timestamp,
  /** When the next reminder is due; null when off. */
  next_due_at: timestamp.nullable(),
  /** The server's time, so the client can follow the emulator clock. */
  now: timestamp,
  /** Since the session began, from the ledger. */
  stakes: moneyString,
  payouts: moneyString,
  net_result: moneyString,
})
export type RealityCheck = z.infer<typeof realityCheckSchema>

export const realityCheck = defineEndpoint({
  id: 'realityCheck',
  method: 'GET',
  path: '/api/protection/reality-check',
  summary: "The reality check: interval, this session's length and its stakes, payouts and net result",
  tag: 'protection',
  source: 'ours',
  fields: 'ours',
  auth: true,
  data: realityCheckSchema,
})

export const setRealityCheck = defineEndpoint({
  id: 'setRealityCheck',
  method: 'POST',
  path: '/api/protection/reality-check',
  summary: 'Choose the reality-check interval (0, 15, 30 or 60 minutes)',
  tag: 'protection',
  source: 'ours',
  fields: 'ours',
  auth: true,
  encoding: 'urlencoded',
  body: z.strictObject({ interval_minutes: intParam(0, 60).pipe(realityCheckIntervalSchema) }),
  data: realityCheckSchema,
})

export const acknowledgeRealityCheck = defineEndpoint({
  id: 'acknowledgeRealityCheck',
  method: 'POST',
  path: '/api/protection/reality-check/continue',
  summary: 'The player chose to keep playing: the next reminder is one interval from now',
  tag: 'protection',
  source: 'ours',
  fields: 'ours',
  auth: true,
  encoding: 'urlencoded',
  data: realityCheckSchema,
})

export const exclusionSchema = z.object({
  kind: exclusionKindSchema,
  period: exclusionPeriodSchema,
  started_at: timestamp,
  ends_at: timestamp,
})

export const startExclusion = defineEndpoint({
  id: 'startExclusion',
  method: 'POST',
  path: '/api/protection/exclusion',
  summary: 'Start a time-out or self-exclusion at once; every session ends; it cannot be lifted early',
  tag: 'protection',
  source: 'ours',
  fields: 'ours',
  auth: true,
  encoding: 'urlencoded',
  body: z.strictObject({ period: exclusionPeriodSchema, password: passwordField }),
  data: exclusionSchema,
})

export const excludedWithdraw = defineEndpoint({
  id: 'excludedWithdraw',
  method: 'POST',
  path: '/api/protection/withdraw',
  summary:
    'Withdraw during a time-out or self-exclusion, without a session: phone, login password and payment password',
  tag: 'protection',
  source: 'ours',
  fields: 'ours',
  auth: false,
  encoding: 'urlencoded',
  idempotent: true,
  body: z.strictObject({
    phone: phoneField,
    password: passwordField,
    /** One of the player's bound addresses; the default one when left out. */
    wallet_id: idParam.optional(),
    amount: positiveAmountField,
    pay_password: payPasswordField,
  }),
  data: z.object({ order_no: z.string(), amount: moneyString, fee: moneyString, balance: moneyString }),
})

/** Who asks, in the protected withdrawal flow: the account's phone and login password. */
const excludedProof = { phone: phoneField, password: passwordField }

/** What the protected withdrawal flow shows: the exclusion, the money and where it can go. */
export const excludedAccountSchema = z.object({
  kind: exclusionKindSchema,
  ends_at: timestamp,
  /** The account's phone, masked, where the SMS code goes. */
  phone: z.string(),
  withdraw: getWithdrawConfig.data,
  wallets: listWallets.data,
})

export const excludedAccount = defineEndpoint({
  id: 'excludedAccount',
  method: 'POST',
  path: '/api/protection/excluded/account',
  summary:
    'During a time-out or self-exclusion, without a session: balance, fee, limits and bound addresses; phone and login password',
  tag: 'protection',
  source: 'ours',
  fields: 'ours',
  auth: false,
  encoding: 'urlencoded',
  body: z.strictObject(excludedProof),
  data: excludedAccountSchema,
})

export const excludedSms = defineEndpoint({
  id: 'excludedSms',
  method: 'POST',
  path: '/api/protection/excluded/sms',
  summary:
    "During a time-out or self-exclusion: send an SMS code to the account's phone, to bind an address or set the payment password",
  tag: 'protection',
  source: 'ours',
  fields: 'ours',
  auth: false,
  encoding: 'urlencoded',
  body: z.strictObject(excludedProof),
  data: z.object({ resend_in: z.number().int(), expires_in: z.number().int() }),
})

export const excludedSetup = defineEndpoint({
  id: 'excludedSetup',
  method: 'POST',
  path: '/api/protection/excluded/setup',
  summary:
    'During a time-out or self-exclusion: set the payment password and/or bind a withdrawal address; login password and SMS code',
  tag: 'protection',
  source: 'ours',
  fields: 'ours',
  auth: false,
  encoding: 'urlencoded',
  body: z.strictObject({
    ...excludedProof,
    sms_code: smsCodeField,
    /** A new payment password; needed when the account has none and an address is bound. */
    pay_password: payPasswordField.optional(),
    address: tronAddressField.optional(),
    label: walletLabelField.optional(),
  }),
  data: excludedAccountSchema,
})

export const netPositionTotalsSchema = z.object({
  /** Top-ups (the same orders the deposit limit counts once they are paid). */
  deposits: moneyString,
  /** USDT sent in as transfer bets: staked at once, so also counted in stakes; never a top-up. */
  transfer_bets: moneyString,
  /** Withdrawn plus fees, less withdrawals refunded. */
  withdrawals: moneyString,
  stakes: moneyString,
  /** Winnings and stakes returned on tied rounds. */
  payouts: moneyString,
  /** Payouts − stakes: negative is a loss. */
  net_result: moneyString,
  /** Rebates, bonuses, exchanges and refused transfer bets. */
  other: moneyString,
})
export type NetPositionTotals = z.infer<typeof netPositionTotalsSchema>

export const NET_POSITION_SPANS = ['today', '7d', '30d', 'range'] as const
export const NET_POSITION_SPAN_LABEL: Record<(typeof NET_POSITION_SPANS)[number], string> = {
  today: '今日',
  '7d': '近 7 天',
  '30d': '近 30 天',
  range: '自选区间',
}

/** The longest range one call may ask for. */
export const NET_POSITION_MAX_DAYS = 366

export const netPosition = defineEndpoint({
  id: 'netPosition',
  method: 'GET',
  path: '/api/protection/net-position',
  summary:
    'Deposits, withdrawals, stakes, payouts and net result (USDT) from the ledger, per span and per day',
  tag: 'protection',
  source: 'ours',
  fields: 'ours',
  auth: true,
  /** Business dates (China Standard Time), inclusive; the last 30 days when left out. */
  query: z.strictObject({ start_date: dateParam.optional(), end_date: dateParam.optional() }),
  data: z.object({
    spans: z.array(
      netPositionTotalsSchema.extend({
        span: z.enum(NET_POSITION_SPANS),
        start_date: z.string(),
        end_date: z.string(),
      }),
    ),
    /** Every day of the chosen range, oldest first. */
    daily: z.array(netPositionTotalsSchema.extend({ date: z.string() })),
  }),
})

export const PROTECTION_ENDPOINTS = [
  protectionLimits,
  setProtectionLimit,
  realityCheck,
  setRealityCheck,
  acknowledgeRealityCheck,
  startExclusion,
  excludedWithdraw,
  excludedAccount,
  excludedSms,
  excludedSetup,
  netPosition,
] as const
