import { amountField } from '@shared/contract/fields'
import { type ExchangePair, exchangeQuoteMicro } from '@shared/contract/wallet'
import { formatMoney, toMicro } from '@shared/money'

/**
 * Amount arithmetic of the wallet pages. Every amount is a decimal string on screen and an integer
 * of micro-units in between (shared/money.ts); no amount ever passes through a float.
 */

/** A typed amount in micro-units; null while it is not a complete amount ("", ".", too many places). */
export function parseAmount(text: string): number | null {
  const trimmed = text.trim().replace(/\.$/, '')
  if (!amountField.safeParse(trimmed).success) return null
  return toMicro(trimmed)
}

// ── withdrawal ─────────────────────────────────────────────────────────────────────────────────

export interface WithdrawRules {
  min_amount: string
  max_amount: string
  fee: string
  balance: string
  remaining_today: string
  max_withdrawable: string
}

export interface WithdrawQuote {
  /** What arrives at the address: the amount itself (the fee is on top). */
  arrive: string
  fee: string
  /** What leaves the balance: amount + fee. */
  total: string
  /** Why the amount cannot be withdrawn now; null when it can. */
  problem: string | null
}

/** The fee, what arrives and what leaves the balance for a typed amount, and what stands in the way. */
export function withdrawQuote(input: string, rules: WithdrawRules): WithdrawQuote | null {
  const amount = parseAmount(input)
  if (amount === null) return null
  const fee = toMicro(rules.fee)
  const total = amount + fee
  const quote = { arrive: formatMoney(amount), fee: formatMoney(fee), total: formatMoney(total) }
  const problem = (() => {
    if (amount <= 0) return '金额必须大于0'
    if (amount < toMicro(rules.min_amount)) return `单笔最低提现 ${rules.min_amount} USDT`
    if (amount > toMicro(rules.max_amount)) return `单笔最高提现 ${rules.max_amount} USDT`
    if (amount > toMicro(rules.remaining_today)) return `超出今日剩余额度 ${rules.remaining_today} USDT`
    if (total > toMicro(rules.balance)) return `余额不足：提现 ${quote.arrive} + 手续费 ${quote.fee} USDT`
    return null
  })()
  return { ...quote, problem }
}

// ── exchange ───────────────────────────────────────────────────────────────────────────────────

export interface ExchangeQuote {
  /** What arrives, in the pair's `to` currency, rounded down as the server does. */
  received: string
  problem: string | null
}

/** The live quote for a typed amount of the pair's `from` currency, checked against its limits. */
export function exchangeQuote(
  input: string,
  pair: ExchangePair,
  balance: string | null,
): ExchangeQuote | null {
  const amount = parseAmount(input)
  if (amount === null) return null
  const received = exchangeQuoteMicro(amount, pair.rate)
  const problem = (() => {
    if (amount <= 0) return '金额必须大于0'
    if (amount < toMicro(pair.min_amount)) return `单笔最少兑换 ${pair.min_amount} ${pair.from}`
    if (amount > toMicro(pair.max_amount)) return `单笔最多兑换 ${pair.max_amount} ${pair.from}`
    if (balance !== null && amount > toMicro(balance)) return `${pair.from} 余额不足`
    if (received <= 0) return '兑换数量过小'
    return null
  })()
  return { received: formatMoney(received), problem }
}

/** The most of `from` a player can exchange now: the balance, capped by the pair's maximum. */
export function exchangeAllAmount(pair: ExchangePair, balance: string): string {
  const most = Math.min(toMicro(balance), toMicro(pair.max_amount))
  return formatMoney(Math.max(0, most))
}
