import { z } from 'zod'
import { toMicro } from '../money'
import { tronAddressProblem } from '../tron'
import { defineEndpoint } from './endpoint'
import {
  amountField,
  dateParam,
  idParam,
  moneyString,
  noteField,
  paged,
  pageParams,
  payPasswordField,
  timestamp,
} from './fields'

/**
 * The wallet: top-up (USDT on TRC20), withdrawal, withdrawal addresses, USDT↔TRX exchange, the
 * fund flow (the ledger) and the top-up and withdrawal histories. The upstream documents the paths only, so
 * every field here is ours (`fields: 'ours'`). Amounts travel as decimal strings with 2 to 6
 * places; money-moving POSTs are idempotent (send an `Idempotency-Key` header).
 */

export const NETWORK = 'TRC20' as const
export const CURRENCIES = ['USDT', 'TRX'] as const
export const currencySchema = z.enum(CURRENCIES)
export type WalletCurrency = z.infer<typeof currencySchema>

/** Why a balance moved; the fund-flow filter offers these. */
export const FUND_FLOW_TYPES = [
  'topup',
  'withdrawal',
  'withdrawal_fee',
  'refund',
  'bet',
  'transfer_bet',
  'payout',
  'rebate',
  'exchange',
  'bonus',
  'deposit_bonus',
] as const
export const fundFlowTypeSchema = z.enum(FUND_FLOW_TYPES)
export type FundFlowType = z.infer<typeof fundFlowTypeSchema>

export const FUND_FLOW_TYPE_LABEL: Record<FundFlowType, string> = {
  topup: '充值',
  withdrawal: '提现',
  withdrawal_fee: '提现手续费',
  // Withdrawal rejections, tied rounds and refused transfer bets all return money this way; the memo says which.
  refund: '退款',
  bet: '投注',
  // USDT sent in from a bound bet address and staked at once (docs/product.md#fund-flow-types); never a top-up.
  transfer_bet: '转账投注',
  payout: '派奖',
  rebate: '返水',
  exchange: '兑换',
  bonus: '赠送',
  deposit_bonus: '首充赠送',
}

export const DEPOSIT_STATUSES = ['pending', 'confirmed'] as const
export const depositStatusSchema = z.enum(DEPOSIT_STATUSES)
export type DepositStatus = z.infer<typeof depositStatusSchema>
export const DEPOSIT_STATUS_LABEL: Record<DepositStatus, string> = { pending: '确认中', confirmed: '已到账' }

export const WITHDRAWAL_STATUSES = ['pending', 'approved', 'rejected'] as const
export const withdrawalStatusSchema = z.enum(WITHDRAWAL_STATUSES)
export type WithdrawalStatus = z.infer<typeof withdrawalStatusSchema>
export const WITHDRAWAL_STATUS_LABEL: Record<WithdrawalStatus, string> = {
  pending: '审核中',
  approved: '已到账',
  rejected: '已退回',
}

/** A TRON address, checked fully (length, leading T, base58check); the message says what is wrong. */
export const tronAddressField = z
  .string()
  .trim()
  .superRefine((value, ctx) => {
    const problem = tronAddressProblem(value)
    if (problem) ctx.addIssue({ code: 'custom', message: problem })
  })
  .meta({
    pattern: '^T[1-9A-HJ-NP-Za-km-z]{33}$',
    description:
      'A TRON address: T and 33 base58 characters whose last 4 bytes are the checksum (base58check).',
    examples: ['TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 'TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8'],
  })

export const walletLabelField = noteField({
  max: 20,
  empty: '请填写地址备注',
  tooLong: '备注不能超过20个字',
})

/** A positive amount as text, up to 6 places. */
export const positiveAmountField = amountField
  .refine((v) => /[1-9]/.test(v), { error: '金额必须大于0' })
  // The same rule as one pattern, for the published document; it keeps to amounts below a
  // billion, which every server can hold exactly.
  .meta({
    pattern:
      '^(?:[1-9]\\d{0,8}(?:\\.\\d{1,6})?|0\\.(?:[1-9]\\d{0,5}|0[1-9]\\d{0,4}|00[1-9]\\d{0,3}|000[1-9]\\d{0,2}|0000[1-9]\\d?|00000[1-9]))$',
  })

/** Amount to receive for `amount` at `rate` (both decimal strings), in micro-units, rounded down. */
export function exchangeQuoteMicro(amountMicro: number, rate: string): number {
  const out = (BigInt(amountMicro) * BigInt(toMicro(rate))) / 1_000_000n
  return Number(out)
}

// ── top-up ─────────────────────────────────────────────────────────────────────────────────────

export const depositOrderSchema = z.object({
  id: z.number().int(),
  order_no: z.string(),
  currency: z.literal('USDT'),
  network: z.literal(NETWORK),
  /** The player's deposit address the transfer goes to. */
  address: z.string(),
  amount: moneyString,
  status: depositStatusSchema,
  status_label: z.string(),
  /** Confirmations seen so far (grows while pending) and the number needed. */
  confirmations: z.number().int(),
  confirmations_required: z.number().int(),
  tx_hash: z.string().nullable(),
  created_at: timestamp,
  /** When the chain is expected to have confirmed it. */
  expected_at: timestamp,
  confirmed_at: timestamp.nullable(),
})
export type DepositOrder = z.infer<typeof depositOrderSchema>

export const getPayInfoUsdt = defineEndpoint({
  id: 'getPayInfoUsdt',
  method: 'GET',
  path: '/api/pay/get_pay_info_usdt',
  summary: "The player's USDT (TRC20) deposit address, its QR content, the minimum and the confirmations",
  tag: 'wallet',
  source: 'spec',
  fields: 'ours',
  auth: true,
  data: z.object({
    currency: z.literal('USDT'),
    network: z.literal(NETWORK),
    /** Unique to the player; a valid TRON address. */
    address: z.string(),
    /** What the QR code encodes. */
    qr_text: z.string(),
    min_amount: moneyString,
    max_amount: moneyString,
    confirmations: z.number().int(),
    /** Roughly how long the chain takes to confirm a transfer. */
    chain_delay_seconds: z.number().int(),
    /** The wrong-network warning to show beside the address. */
    notice: z.string(),
  }),
})

export const usdtPay = defineEndpoint({
  id: 'usdtPay',
  method: 'POST',
  path: '/api/usdtpay',
  summary: 'Create a USDT top-up order; it confirms after the chain delay and credits once',
  tag: 'wallet',
  source: 'spec',
  fields: 'ours',
  auth: true,
  encoding: 'urlencoded',
  idempotent: true,
  body: z.strictObject({ amount: positiveAmountField }),
  data: depositOrderSchema,
})

export const getDepositOrder = defineEndpoint({
  id: 'getDepositOrder',
  method: 'GET',
  path: '/api/pay/deposit-order',
  summary: "One of the player's top-up orders, for following its status",
  tag: 'wallet',
  source: 'ours',
  fields: 'ours',
  auth: true,
  query: z.strictObject({ id: idParam }),
  data: depositOrderSchema,
})

const historyQuery = {
  ...pageParams,
  start_date: dateParam.optional(),
  end_date: dateParam.optional(),
}

export const getDepositHistory = defineEndpoint({
  id: 'getDepositHistory',
  method: 'GET',
  path: '/api/api/getDepositHistory',
  summary: 'Top-up orders, newest first',
  tag: 'wallet',
  source: 'spec',
  fields: 'ours',
  auth: true,
  query: z.strictObject({ ...historyQuery, status: depositStatusSchema.optional() }),
  data: paged(depositOrderSchema),
})

// ── withdrawal addresses ───────────────────────────────────────────────────────────────────────

export const walletAddressSchema = z.object({
  id: z.number().int(),
  address: z.string(),
  label: z.string(),
  network: z.literal(NETWORK),
  is_default: z.boolean(),
  created_at: timestamp,
})
export type WalletAddress = z.infer<typeof walletAddressSchema>

const walletListData = z.object({
  /** Default first, then newest first. */
  list: z.array(walletAddressSchema),
  /** How many addresses a player may bind. */
  max_count: z.number().int(),
})

export const listWallets = defineEndpoint({
  id: 'listWallets',
  method: 'GET',
  path: '/api/api2/wallets',
  summary: "The player's bound withdrawal addresses",
  tag: 'wallet',
  source: 'spec',
  fields: 'ours',
  auth: true,
  data: walletListData,
})

export const bindWallet = defineEndpoint({
  id: 'bindWallet',
  method: 'POST',
  path: '/api/api2/wallets/bind',
  summary: 'Bind a withdrawal address (TRC20) with a label; needs the payment password',
  tag: 'wallet',
  source: 'spec',
  fields: 'ours',
  auth: true,
  encoding: 'urlencoded',
  body: z.strictObject({
    address: tronAddressField,
    label: walletLabelField,
    pay_password: payPasswordField,
    /** "1" or "true" makes it the default; the first address is always the default. */
    is_default: z.enum(['0', '1', 'true', 'false']).optional(),
  }),
  data: walletListData,
})

export const setDefaultWallet = defineEndpoint({
  id: 'setDefaultWallet',
  method: 'POST',
  path: '/api/wallets/set-default',
  summary: 'Make one bound address the default',
  tag: 'wallet',
  source: 'spec',
  fields: 'ours',
  auth: true,
  encoding: 'urlencoded',
  body: z.strictObject({ id: idParam }),
  data: walletListData,
})

export const deleteWallet = defineEndpoint({
  id: 'deleteWallet',
  method: 'POST',
  path: '/api/wallets/delete',
  summary: 'Remove a bound address; when it was the default, the newest remaining one becomes the default',
  tag: 'wallet',
  source: 'spec',
  fields: 'ours',
  auth: true,
  encoding: 'urlencoded',
  body: z.strictObject({ id: idParam }),
  data: walletListData,
})

// ── withdrawal ─────────────────────────────────────────────────────────────────────────────────

export const withdrawalSchema = z.object({
  id: z.number().int(),
  order_no: z.string(),
  currency: z.literal('USDT'),
  network: z.literal(NETWORK),
  address: z.string(),
  label: z.string(),
  /** What arrives at the address. */
  amount: moneyString,
  fee: moneyString,
  /** amount + fee: what left the balance at request (and comes back on rejection). */
  total: moneyString,
  status: withdrawalStatusSchema,
  status_label: z.string(),
  /** Why it was rejected. */
  reason: z.string().nullable(),
  tx_hash: z.string().nullable(),
  created_at: timestamp,
  reviewed_at: timestamp.nullable(),
})
export type Withdrawal = z.infer<typeof withdrawalSchema>

export const getWithdrawConfig = defineEndpoint({
  id: 'getWithdrawConfig',
  method: 'GET',
  path: '/api/api2/withdraw/config',
  summary: "Withdrawal rules and the player's state: minimum, fee, daily limit left, payment-password lock",
  tag: 'wallet',
  source: 'ours',
  fields: 'ours',
  auth: true,
  data: z.object({
    currency: z.literal('USDT'),
    network: z.literal(NETWORK),
    min_amount: moneyString,
    max_amount: moneyString,
    /** Fixed fee per withdrawal, on top of the amount. */
    fee: moneyString,
    daily_limit: moneyString,
    /** Withdrawn today (China Standard Time), rejected ones excluded, and what is left. */
    used_today: moneyString,
    remaining_today: moneyString,
    balance: moneyString,
    /** The most that can be withdrawn now: min(balance − fee, remaining_today, max_amount), or 0.00. */
    max_withdrawable: moneyString,
    has_pay_password: z.boolean(),
    /** Set while withdrawals are locked after too many wrong payment passwords. */
    locked_until: timestamp.nullable(),
    pay_password_attempts_left: z.number().int(),
  }),
})

export const withdraw = defineEndpoint({
  id: 'withdraw',
  method: 'POST',
  path: '/api/api2/withdraw',
  summary: 'Withdraw USDT to a bound address; amount + fee are held at once; needs the payment password',
  tag: 'wallet',
  source: 'spec',
  fields: 'ours',
  auth: true,
  encoding: 'urlencoded',
  idempotent: true,
  body: z.strictObject({
    /** Id of one of the player's bound addresses (`api2/wallets`). */
    wallet_id: idParam,
    amount: positiveAmountField,
    pay_password: payPasswordField,
  }),
  data: z.object({ order: withdrawalSchema, balance: moneyString }),
})

export const getWithdrawalHistory = defineEndpoint({
  id: 'getWithdrawalHistory',
  method: 'GET',
  path: '/api/api/getWithdrawalHistory',
  summary: 'Withdrawals, newest first',
  tag: 'wallet',
  source: 'spec',
  fields: 'ours',
  auth: true,
  query: z.strictObject({ ...historyQuery, status: withdrawalStatusSchema.optional() }),
  data: paged(withdrawalSchema),
})

// ── exchange ───────────────────────────────────────────────────────────────────────────────────

export const exchangePairSchema = z.object({
  from: currencySchema,
  to: currencySchema,
  /** Units of `to` per 1 `from`, as a decimal string. */
  rate: z.string(),
  /** Limits on the amount of `from`. */
  min_amount: moneyString,
  max_amount: moneyString,
})
export type ExchangePair = z.infer<typeof exchangePairSchema>

export const changeType = defineEndpoint({
  id: 'changeType',
  method: 'GET',
  path: '/api/api/change_type',
  summary: 'Exchange pairs (USDT↔TRX), their rates and limits',
  tag: 'wallet',
  source: 'spec',
  fields: 'ours',
  auth: true,
  data: z.object({ pairs: z.array(exchangePairSchema) }),
})

export const exchange = defineEndpoint({
  id: 'exchange',
  method: 'POST',
  path: '/api/api/exchange',
  summary: 'Convert between USDT and TRX at the pair rate; both balances move in one transaction',
  tag: 'wallet',
  source: 'ours',
  fields: 'ours',
  auth: true,
  encoding: 'urlencoded',
  idempotent: true,
  body: z.strictObject({ from: currencySchema, to: currencySchema, amount: positiveAmountField }),
  data: z.object({
    from: currencySchema,
    to: currencySchema,
    /** Paid, in `from`. */
    amount: moneyString,
    /** Received, in `to` (rounded down to 6 places). */
    received: moneyString,
    rate: z.string(),
    /** Shared reference of the two fund-flow rows. */
    ref: z.string(),
    balance: moneyString,
    trx_balance: moneyString,
  }),
})

// ── fund flow ──────────────────────────────────────────────────────────────────────────────────

export const fundFlowItemSchema = z.object({
  id: z.number().int(),
  type: fundFlowTypeSchema,
  type_label: z.string(),
  currency: currencySchema,
  /** Signed: negative for money going out. */
  amount: moneyString,
  balance_after: moneyString,
  /** The order number the row belongs to (top-up, withdrawal, exchange, bet), if any. */
  ref: z.string().nullable(),
  memo: z.string(),
  created_at: timestamp,
})
export type FundFlowItem = z.infer<typeof fundFlowItemSchema>

export const fundFlow = defineEndpoint({
  id: 'fundFlow',
  method: 'GET',
  path: '/api/api2/fund-flow',
  summary:
    'The ledger: every balance change, newest first; filters by type, currency and date (CST, inclusive)',
  tag: 'wallet',
  source: 'spec',
  fields: 'ours',
  auth: true,
  query: z.strictObject({
    ...historyQuery,
    type: fundFlowTypeSchema.optional(),
    currency: currencySchema.optional(),
  }),
  data: paged(fundFlowItemSchema),
})

export const WALLET_ENDPOINTS = [
  getPayInfoUsdt,
  usdtPay,
  getDepositOrder,
  getDepositHistory,
  listWallets,
  bindWallet,
  setDefaultWallet,
  deleteWallet,
  getWithdrawConfig,
  withdraw,
  getWithdrawalHistory,
  changeType,
  exchange,
  fundFlow,
] as const
