import { type Db, immediate } from '@server/db/database'
import { ApiError, fail } from '@server/http/api-error'
import { BUSINESS_UTC_OFFSET_MS, DAY_MS, dayStartOf, startOfDay } from '@shared/business-day'
import {
  EXCLUSION_PERIODS,
  type ExclusionPeriod,
  exclusionPeriodSchema,
  LIMIT_COOLING_OFF_MS,
  LIMIT_KINDS,
  LIMIT_PERIODS,
  type LimitKind,
  type LimitPeriod,
  type LimitView,
  NET_POSITION_MAX_DAYS,
  type NetPositionTotals,
  type RealityCheck,
  type RealityCheckInterval,
} from '@shared/contract/protection'
import { CODE } from '@shared/envelope'
import { maskPhone } from '@shared/mask'
import { formatMoney } from '@shared/money'
import type { AccountRepository, PlayerRow } from '../account/account-repository'
import type { AccountService } from '../account/account-service'
import { hashPassword } from '../account/passwords'
import type { SessionRepository } from '../account/session-repository'
import { hashToken } from '../account/session-token'
import type { EmuClock } from '../clock'
import type { WithdrawalService } from '../wallet/withdrawal-service'
import { addCstMonths, cstDate, periodRange } from './periods'
import { effectiveLimit, PROTECTION_MSG, type ProtectionGuard } from './protection-guard'
import type { LedgerTotalsRow } from './protection-repository'

const MINUTE = 60_000
const HOUR = 3_600_000

export interface ProtectionDeps {
  readonly db: Db
  readonly clock: EmuClock
  readonly guard: ProtectionGuard
  readonly accounts: AccountRepository
  /** Proves the login password through its counted lock. */
  readonly account: Pick<
    AccountService,
    'proveLoginPassword' | 'refuseUnknownPhone' | 'sendSms' | 'consumeSms'
  >
  readonly sessions: SessionRepository
  readonly withdrawals: WithdrawalService
}

/** Totals of the ledger as the contract sends them. */
function totalsView(t: LedgerTotalsRow): NetPositionTotals {
  return {
    deposits: formatMoney(t.deposits),
    transfer_bets: formatMoney(t.transfer_bets),
    withdrawals: formatMoney(t.withdrawals),
    stakes: formatMoney(t.stakes),
    payouts: formatMoney(t.payouts),
    net_result: formatMoney(t.payouts - t.stakes),
    other: formatMoney(t.other),
  }
}

const ZERO_TOTALS: LedgerTotalsRow = {
  deposits: 0,
  transfer_bets: 0,
  withdrawals: 0,
  stakes: 0,
  payouts: 0,
  other: 0,
}

/** When an exclusion chosen at `at` ends. */
export function exclusionEnd(period: ExclusionPeriod, at: number): number {
  const p = EXCLUSION_PERIODS[period]
  return 'hours' in p ? at + p.hours * HOUR : addCstMonths(at, p.months)
}

/**
 * Player protection on the emulator clock: limits with their cooling-off, time-out and
 * self-exclusion and the net position on the world clock (as money and its days are); the reality
 * check on the request's clock (as the session it belongs to is).
 */
export class ProtectionService {
  constructor(private readonly deps: ProtectionDeps) {}

  private get repo() {
    return this.deps.guard.repo
  }

  private now(): number {
    return this.deps.clock.now()
  }

  // ── limits ──

  private limitView(playerId: number, kind: LimitKind, period: LimitPeriod, now: number): LimitView {
    const { limit, pending } = effectiveLimit(this.repo.limit(playerId, kind, period), now)
    const used = this.deps.guard.used(kind, playerId, period, now)
    const shownUsed = Math.max(0, used)
    return {
      kind,
      period,
      limit: limit === null ? null : formatMoney(limit),
      used: formatMoney(shownUsed),
      remaining: limit === null ? null : formatMoney(Math.max(0, limit - used)),
      resets_at: periodRange(period, now).end,
      pending: pending && {
        limit: pending.limit === null ? null : formatMoney(pending.limit),
        effective_at: pending.at,
      },
    }
  }

  limits(playerId: number) {
    const now = this.now()
    const list = LIMIT_KINDS.flatMap((kind) =>
      LIMIT_PERIODS.map((period) => this.limitView(playerId, kind, period, now)),
    )
    return { list, now }
  }

  /**
   * A lower limit (or a first one) applies at once and drops any waiting raise; a higher one, or
   * removal (`null`), waits 24 h. Asking again for the change already waiting keeps its time.
   */
  setLimit(playerId: number, kind: LimitKind, period: LimitPeriod, amountMicro: number | null) {
    return immediate(this.deps.db, () => {
      const now = this.now()
      const row = this.repo.limit(playerId, kind, period)
      const { limit, pending } = effectiveLimit(row, now)
      const tighter = amountMicro !== null && (limit === null || amountMicro <= limit)
      if (tighter) {
        this.repo.saveLimit({
          player_id: playerId,
          kind,
          period,
          limit_micro: amountMicro,
          pending_micro: null,
          pending_at: null,
          updated_at: now,
        })
      } else if (limit !== null) {
        const same = pending !== null && pending.limit === amountMicro
        this.repo.saveLimit({
          player_id: playerId,
          kind,
          period,
          limit_micro: limit,
          pending_micro: amountMicro,
          pending_at: same ? pending.at : now + LIMIT_COOLING_OFF_MS,
          updated_at: now,
        })
      }
      // Removing a limit that is not set changes nothing.
      return { limit: this.limitView(playerId, kind, period, now), now }
    })
  }

  // ── reality check ──

  private sessionStart(token: string): number {
    const session = this.deps.sessions.live(token, this.deps.clock.requestNow())
    if (!session) throw new ApiError(CODE.sessionExpired, '登录已失效!')
    return session.created_at
  }

  /**
   * On the request's clock, like the session it belongs to: a tester's scoped clock moves the
   * reminder for their own session without moving the world.
   */
  realityCheck(playerId: number, token: string): RealityCheck {
    const now = this.deps.clock.requestNow()
    const start = this.sessionStart(token)
    const interval = this.repo.interval(playerId)
    const last = this.repo.acknowledgedAt(hashToken(token)) ?? start
    const t = this.repo.totalsBetween(playerId, start, Number.MAX_SAFE_INTEGER)
    return {
      interval_minutes: intervalOf(interval),
      session_started_at: start,
      next_due_at: interval === 0 ? null : last + interval * MINUTE,
      now,
      stakes: formatMoney(t.stakes),
      payouts: formatMoney(t.payouts),
      net_result: formatMoney(t.payouts - t.stakes),
    }
  }

  setRealityCheck(playerId: number, token: string, minutes: RealityCheckInterval): RealityCheck {
    immediate(this.deps.db, () => this.repo.setInterval(playerId, minutes))
    return this.realityCheck(playerId, token)
  }

  /** "继续游戏": the next reminder comes one interval from now. */
  acknowledge(playerId: number, token: string): RealityCheck {
    this.sessionStart(token)
    immediate(this.deps.db, () => this.repo.acknowledge(hashToken(token), this.deps.clock.requestNow()))
    return this.realityCheck(playerId, token)
  }

  // ── time-out and self-exclusion ──

  /**
   * Starts at once and ends every session of the player, in one transaction. Nothing shortens it:
   * a second one while the first runs can only end later.
   */
  async startExclusion(playerId: number, period: ExclusionPeriod, password: string) {
    const player = this.deps.accounts.findById(playerId)
    if (!player) throw new ApiError(CODE.sessionExpired, '登录已失效!')
    await this.deps.account.proveLoginPassword(player, password)
    const row = immediate(this.deps.db, () => {
      const now = this.now()
      this.repo.saveExclusion({
        player_id: playerId,
        kind: EXCLUSION_PERIODS[period].kind,
        period,
        started_at: now,
        ends_at: exclusionEnd(period, now),
      })
      this.deps.sessions.endAll(playerId, now)
      const saved = this.repo.exclusion(playerId)
      if (!saved) throw new Error('exclusion vanished')
      return saved
    })
    this.deps.guard.noteExclusion(playerId)
    return {
      kind: row.kind,
      period: exclusionPeriodOf(row.period),
      started_at: row.started_at,
      ends_at: row.ends_at,
    }
  }

  /**
   * A withdrawal without a session, for a player whose time-out or self-exclusion refuses login:
   * the login password proves who they are, the payment password and the usual checks guard the
   * money, and it only goes to an address bound before.
   */
  async excludedWithdraw(input: {
    phone: string
    password: string
    wallet_id?: number | undefined
    amountMicro: number
    pay_password: string
  }) {
    const player = await this.provePlayer(input.phone, input.password)
    if (!this.deps.guard.activeExclusion(player.id, this.now())) throw fail(PROTECTION_MSG.notExcluded)
    const walletId = input.wallet_id ?? this.defaultWallet(player.id)
    return this.deps.withdrawals.withdraw(
      player.id,
      walletId,
      input.amountMicro,
      input.pay_password,
      ({ order, balance }) => ({ order_no: order.order_no, amount: order.amount, fee: order.fee, balance }),
    )
  }

  // ── the protected withdrawal flow: no session, the login password proves who asks ──

  /** The exclusion in force, or the refusal that sends the player to log in. */
  private assertExcluded(playerId: number) {
    const exclusion = this.deps.guard.activeExclusion(playerId, this.now())
    if (!exclusion) throw fail(PROTECTION_MSG.notExcluded)
    return exclusion
  }

  private accountView(player: PlayerRow) {
    const exclusion = this.assertExcluded(player.id)
    return {
      kind: exclusion.kind,
      ends_at: exclusion.ends_at,
      phone: maskPhone(player.phone),
      withdraw: this.deps.withdrawals.config(player.id),
      wallets: this.deps.withdrawals.addressList(player.id),
    }
  }

  /** What the flow shows: the exclusion, balance, fee, limits, the addresses bound. */
  async excludedAccount(phone: string, password: string) {
    const player = await this.provePlayer(phone, password)
    return this.accountView(player)
  }

  /** An SMS code to the account's own phone, for `excludedSetup`. */
  async excludedSms(phone: string, password: string) {
    const player = await this.provePlayer(phone, password)
    this.assertExcluded(player.id)
    return this.deps.account.sendSms(player.phone, 'excluded')
  }

  /**
   * Sets the payment password and/or binds a withdrawal address while an exclusion refuses login,
   * so a player who had neither can still take their money out. Proved by the login password
   * (through its counted lock) and an SMS code sent to the account's phone; the address is bound
   * the first time without the payment password, which this same call may set.
   */
  async excludedSetup(input: {
    phone: string
    password: string
    sms_code: string
    pay_password?: string | undefined
    address?: string | undefined
    label?: string | undefined
  }) {
    if (input.pay_password === undefined && input.address === undefined) throw fail(PROTECTION_MSG.setupEmpty)
    const player = await this.provePlayer(input.phone, input.password)
    this.assertExcluded(player.id)
    const address = input.address
    const hasPay = this.deps.accounts.payPasswordHashOf(player.id) != null
    if (address !== undefined) {
      if (!hasPay && input.pay_password === undefined) throw fail(PROTECTION_MSG.setupNeedsPayPassword)
      // Refuse what would be refused anyway before the code is spent on it.
      this.deps.withdrawals.assertBindable(player.id, address)
    }
    this.deps.account.consumeSms(player.phone, 'excluded', input.sms_code)
    const payHash = input.pay_password === undefined ? null : await hashPassword(input.pay_password)
    immediate(this.deps.db, () => {
      if (payHash !== null) this.deps.accounts.setPayPasswordHash(player.id, payHash)
      if (address !== undefined)
        this.deps.withdrawals.bindProved(
          player.id,
          address,
          input.label ?? PROTECTION_MSG.defaultLabel,
          false,
        )
    })
    return this.accountView(player)
  }

  /**
   * The player behind a phone and login password, without a session: the password is checked
   * through the login password's counted lock, like every check but login's. An unknown phone
   * takes as long as a wrong password and is answered like one.
   */
  private async provePlayer(phone: string, password: string) {
    const player = this.deps.accounts.findByPhone(phone)
    if (!player) {
      await this.deps.account.refuseUnknownPhone(password)
      throw fail(PROTECTION_MSG.wrongPassword)
    }
    await this.deps.account.proveLoginPassword(player, password)
    return player
  }

  private defaultWallet(playerId: number): number {
    const { list } = this.deps.withdrawals.addressList(playerId)
    const chosen = list.find((a) => a.is_default) ?? list[0]
    if (!chosen) throw fail(PROTECTION_MSG.noWallet)
    return chosen.id
  }

  // ── net position ──

  /** Per span (today, 7 days, 30 days, the chosen range) and per day of the range, from the ledger. */
  netPosition(playerId: number, startDate?: string, endDate?: string) {
    const now = this.now()
    const today = dayStartOf(now)
    const rangeEnd = endDate ? startOfDay(endDate) + DAY_MS : today + DAY_MS
    const rangeStart = startDate ? startOfDay(startDate) : rangeEnd - 30 * DAY_MS
    if (rangeStart >= rangeEnd) throw fail('开始日期不能晚于结束日期')
    if (rangeEnd - rangeStart > NET_POSITION_MAX_DAYS * DAY_MS)
      throw fail(`日期区间不能超过 ${NET_POSITION_MAX_DAYS} 天`)
    const span = (name: 'today' | '7d' | '30d' | 'range', from: number, to: number) => ({
      span: name,
      start_date: cstDate(from),
      end_date: cstDate(to - 1),
      ...totalsView(this.repo.totalsBetween(playerId, from, to)),
    })
    const byDay = new Map(
      this.repo
        .totalsByDay(playerId, rangeStart, rangeEnd, BUSINESS_UTC_OFFSET_MS, DAY_MS)
        .map((row) => [row.day, row]),
    )
    const daily = []
    for (let at = rangeStart; at < rangeEnd; at += DAY_MS) {
      const row = byDay.get(Math.floor((at + BUSINESS_UTC_OFFSET_MS) / DAY_MS))
      daily.push({ date: cstDate(at), ...totalsView(row ?? ZERO_TOTALS) })
    }
    return {
      spans: [
        span('today', today, today + DAY_MS),
        span('7d', today - 6 * DAY_MS, today + DAY_MS),
        span('30d', today - 29 * DAY_MS, today + DAY_MS),
        span('range', rangeStart, rangeEnd),
      ],
      daily,
    }
  }
}

function intervalOf(minutes: number): RealityCheckInterval {
  if (minutes === 15 || minutes === 30 || minutes === 60) return minutes
  return 0
}

const exclusionPeriodOf = (text: string): ExclusionPeriod => exclusionPeriodSchema.parse(text)
