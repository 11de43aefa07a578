import type { Db } from '@server/db/database'
import { fail } from '@server/http/api-error'
import {
  EXCLUSION_KIND_LABEL,
  LIMIT_PERIOD_LABEL,
  LIMIT_PERIODS,
  type LimitKind,
  type LimitPeriod,
} from '@shared/contract/protection'
import { formatMoney } from '@shared/money'
import { cstMinute, periodRange } from './periods'
import { type ExclusionRow, type LimitRow, ProtectionRepository } from './protection-repository'

/** Refusals the player sees, as the server sends them. */
export const PROTECTION_MSG = {
  depositLimit: (period: LimitPeriod, limit: number, used: number, resetsAt: number) =>
    `超出${LIMIT_PERIOD_LABEL[period]}充值限额 ${formatMoney(limit)} USDT：本期已充值 ${formatMoney(used)} USDT，` +
    `最多还可充值 ${formatMoney(Math.max(0, limit - used))} USDT，限额于 ${cstMinute(resetsAt)}（北京时间）重置`,
  lossLimit: (period: LimitPeriod, limit: number, used: number, resetsAt: number) =>
    `超出${LIMIT_PERIOD_LABEL[period]}亏损限额 ${formatMoney(limit)} USDT：本期净亏损 ${formatMoney(Math.max(0, used))} USDT，` +
    `最多还可投注 ${formatMoney(Math.max(0, limit - used))} USDT，限额于 ${cstMinute(resetsAt)}（北京时间）重置`,
  excludedBet: (e: ExclusionRow) =>
    `账号处于${EXCLUSION_KIND_LABEL[e.kind]}期，至 ${cstMinute(e.ends_at)}（北京时间）结束，期间不能投注`,
  excludedLogin: (e: ExclusionRow) =>
    `您已选择${EXCLUSION_KIND_LABEL[e.kind]}，至 ${cstMinute(e.ends_at)}（北京时间）结束，期间无法登录；` +
    '余额可在“负责任博彩”页用暂停期提现取出',
  notExcluded: '当前未处于暂停游戏或自我排除期，请登录后提现',
  wrongPassword: '登录密码错误',
  noWallet: '请先绑定提现地址',
  setupEmpty: '请填写要绑定的提现地址或要设置的支付密码',
  setupNeedsPayPassword: '请先设置支付密码（6位数字），再绑定提现地址',
  defaultLabel: '提现地址',
} as const

/** The limit in force at `now`, and the change still waiting: a pending change whose time has come is in force. */
export function effectiveLimit(
  row: LimitRow | undefined,
  now: number,
): { limit: number | null; pending: { limit: number | null; at: number } | null } {
  if (!row) return { limit: null, pending: null }
  if (row.pending_at === null) return { limit: row.limit_micro, pending: null }
  if (row.pending_at <= now) return { limit: row.pending_micro, pending: null }
  return { limit: row.limit_micro, pending: { limit: row.pending_micro, at: row.pending_at } }
}

/**
 * The checks other domains run inside their own transactions: a top-up order against the deposit
 * limits, a stake against the loss limits and an exclusion, a login or a session against an
 * exclusion. One per emulator, handed to those domains when the emulator is built.
 */
export class ProtectionGuard {
  readonly repo: ProtectionRepository
  /** Exclusions by player, for the session check on every request without a query. */
  private exclusions = new Map<number, ExclusionRow>()

  constructor(db: Db) {
    this.repo = new ProtectionRepository(db)
    this.reload()
  }

  /** Reads the exclusions again (after the data was reset underneath). */
  reload(): void {
    this.exclusions = new Map(
      this.repo.exclusionsActiveAt(Number.MIN_SAFE_INTEGER).map((e) => [e.player_id, e]),
    )
  }

  /** Records an exclusion just written, so sessions see it at once. */
  noteExclusion(playerId: number): void {
    const row = this.repo.exclusion(playerId)
    if (row) this.exclusions.set(playerId, row)
  }

  /** The exclusion in force at `now`, if any, as stored. */
  activeExclusion(playerId: number, now: number): ExclusionRow | undefined {
    const row = this.repo.exclusion(playerId)
    return row && row.ends_at > now ? row : undefined
  }

  /** Used in the period containing `now`: deposits ordered, or net lost on bets. */
  used(kind: LimitKind, playerId: number, period: LimitPeriod, now: number): number {
    const { start, end } = periodRange(period, now)
    return kind === 'deposit'
      ? this.repo.depositsBetween(playerId, start, end)
      : this.repo.netLossBetween(playerId, start, end)
  }

  /** Why `amountMicro` more would pass one of the player's limits of this kind, or null. */
  limitRefusal(kind: LimitKind, playerId: number, amountMicro: number, now: number): string | null {
    const rows = this.repo.limits(playerId)
    if (rows.length === 0) return null
    for (const period of LIMIT_PERIODS) {
      const { limit } = effectiveLimit(
        rows.find((r) => r.kind === kind && r.period === period),
        now,
      )
      if (limit === null) continue
      const used = this.used(kind, playerId, period, now)
      if (used + amountMicro > limit) {
        const resetsAt = periodRange(period, now).end
        return kind === 'deposit'
          ? PROTECTION_MSG.depositLimit(period, limit, used, resetsAt)
          : PROTECTION_MSG.lossLimit(period, limit, used, resetsAt)
      }
    }
    return null
  }

  /** Why a stake may not be placed (an exclusion, a loss limit), or null. Call inside the bet's transaction. */
  stakeRefusal(playerId: number, amountMicro: number, now: number): string | null {
    const excluded = this.activeExclusion(playerId, now)
    if (excluded) return PROTECTION_MSG.excludedBet(excluded)
    return this.limitRefusal('loss', playerId, amountMicro, now)
  }

  /** Throws the refusal when a stake may not be placed. Call inside the bet's transaction. */
  assertStake(playerId: number, amountMicro: number, now: number): void {
    const refusal = this.stakeRefusal(playerId, amountMicro, now)
    if (refusal) throw fail(refusal)
  }

  /** Throws the refusal when a top-up order would pass a deposit limit. Call inside the order's transaction. */
  assertDeposit(playerId: number, amountMicro: number, now: number): void {
    const refusal = this.limitRefusal('deposit', playerId, amountMicro, now)
    if (refusal) throw fail(refusal)
  }

  /** Throws the login refusal while an exclusion is in force. */
  assertLogin(playerId: number, now: number): void {
    const excluded = this.activeExclusion(playerId, now)
    if (excluded) throw fail(PROTECTION_MSG.excludedLogin(excluded))
  }

  /** Whether a session of this player may be used at `now`: from memory, as it runs on every request. */
  sessionAllowed(playerId: number, now: number): boolean {
    if (this.exclusions.size === 0) return true
    const row = this.exclusions.get(playerId)
    return row === undefined || row.ends_at <= now
  }
}
