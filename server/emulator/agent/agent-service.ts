import { type Db, immediate } from '@server/db/database'
import { fail } from '@server/http/api-error'
import { pagedAnswer } from '@server/http/paged'
import { addDays, type DayKey, dayOf, dayRange, daysBetween, isDay, startOfDay } from '@shared/business-day'
import type {
  agentInfo,
  agentRebateConfig,
  teamMemberSchema,
  turnoverMemberSchema,
} from '@shared/contract/agent'
import type { rebateClaimSchema, rebateDaySchema, rebateSummary } from '@shared/contract/content'
import type { DataOf } from '@shared/contract/endpoint'
import { formatMoney } from '@shared/money'
import QRCode from 'qrcode'
import type { z } from 'zod'
import type { AccountService } from '../account/account-service'
import { maskPhone } from '../account/mask-phone'
import type { EmuClock } from '../clock'
import type { LedgerRepository } from '../ledger/ledger-repository'
import type { AgentSettings } from './agent-fixtures'
import { commissionFor, formatRate, rebateFor } from './rebate'
import { AlreadyClaimedError, type ClaimDayRow, RebateRepository } from './rebate-repository'
import { type MemberTurnoverRow, TeamRepository } from './team-repository'

export const AGENT_MSG = {
  notInTeam: '该用户不在您的团队中',
  rangeTooLong: '查询范围不能超过31天',
  badDate: '日期不正确',
  alreadyClaimed: '今日已领取，请明天再来',
  nothingToClaim: '暂无可领取的返水',
} as const

export const MAX_RANGE_DAYS = 31
const DEFAULT_RANGE_DAYS = 7

const money = (micro: number) => formatMoney(micro)

interface Page {
  readonly page?: number | undefined
  readonly page_size?: number | undefined
}
const pageOf = (p: Page) => {
  const page = p.page ?? 1
  const size = p.page_size ?? 20
  return { page, size, offset: (page - 1) * size }
}

/** What one turnover day earns a player, in full (before subtracting earlier claims). */
interface DayEarning {
  day: DayKey
  turnover: number
  tier: number
  rateBp: number
  rebate: number
  teamTurnover: number
  commission: number
}

/** The invite programme over the referral tree: team, turnover, rebate, commission and claims. */
export class AgentService {
  readonly team: TeamRepository
  readonly claims: RebateRepository

  constructor(
    private readonly db: Db,
    private readonly clock: EmuClock,
    private readonly ledger: LedgerRepository,
    private readonly accounts: AccountService,
    readonly settings: AgentSettings,
  ) {
    this.team = new TeamRepository(db)
    this.claims = new RebateRepository(db)
  }

  today(): DayKey {
    return dayOf(this.clock.now())
  }

  private player(playerId: number) {
    const p = this.accounts.accounts.findById(playerId)
    if (!p) throw new Error(`player ${playerId} vanished`)
    return p
  }

  inviteLink(inviteCode: string, origin: string): string {
    return `${origin}${this.settings.invitePath}${encodeURIComponent(inviteCode)}`
  }

  /** Commission on team members' turnover, by the level rates, for the rows of one day. */
  private commissionOf(rows: readonly MemberTurnoverRow[]): { commission: number; turnover: number } {
    const byLevel = new Map<number, number>()
    let turnover = 0
    for (const r of rows) {
      if (r.level > this.settings.levelRatesBp.length) continue
      byLevel.set(r.level, (byLevel.get(r.level) ?? 0) + r.turnover_micro)
      turnover += r.turnover_micro
    }
    return { commission: commissionFor(byLevel, this.settings.levelRatesBp), turnover }
  }

  /** The full rebate and commission a day earns the player. */
  earning(playerId: number, day: DayKey): DayEarning {
    const { start, end } = dayRange(day)
    const own = this.team.own(playerId, start, end).turnover_micro
    const r = rebateFor(own, this.settings.tiers)
    const c = this.commissionOf(this.team.byMember(playerId, start, end))
    return {
      day,
      turnover: own,
      tier: r.tier,
      rateBp: r.rateBp,
      rebate: r.amountMicro,
      teamTurnover: c.turnover,
      commission: c.commission,
    }
  }

  /** Per day of the claim window, what is earned and not yet paid; days with nothing left are dropped. */
  private unpaid(playerId: number, now = this.clock.now()): DayEarning[] {
    const today = dayOf(now)
    const from = addDays(today, -(this.settings.claimWindowDays - 1))
    const paid = this.claims.paidByDay(playerId, from, today)
    const out: DayEarning[] = []
    for (const day of daysBetween(from, today)) {
      const e = this.earning(playerId, day)
      const p = paid.get(day) ?? { rebate: 0, commission: 0 }
      // Rates never fall as turnover grows, so what is earned never drops below what was paid.
      const left = {
        ...e,
        rebate: Math.max(0, e.rebate - p.rebate),
        commission: Math.max(0, e.commission - p.commission),
      }
      if (left.rebate > 0 || left.commission > 0) out.push(left)
    }
    return out
  }

  private static dayOut(e: Pick<ClaimDayRow, keyof ClaimDayRow>): z.infer<typeof rebateDaySchema> {
    return {
      date: e.day,
      turnover: money(e.turnover_micro),
      rate_bp: e.rate_bp,
      rate: formatRate(e.rate_bp),
      rebate: money(e.rebate_micro),
      team_turnover: money(e.team_turnover_micro),
      commission: money(e.commission_micro),
    }
  }

  private static toRow(e: DayEarning): ClaimDayRow {
    return {
      day: e.day,
      turnover_micro: e.turnover,
      rate_bp: e.rateBp,
      rebate_micro: e.rebate,
      team_turnover_micro: e.teamTurnover,
      commission_micro: e.commission,
    }
  }

  info(playerId: number, origin: string): DataOf<typeof agentInfo> {
    const p = this.player(playerId)
    const now = this.clock.now()
    const { start, end } = dayRange(this.today())
    const counts = this.team.countsByLevel(playerId)
    const depth = Math.max(this.settings.levelRatesBp.length, ...counts.map((c) => c.level))
    const levels = Array.from({ length: depth }, (_, i) => {
      const rate = this.settings.levelRatesBp[i] ?? 0
      return {
        level: i + 1,
        count: counts.find((c) => c.level === i + 1)?.count ?? 0,
        rate_bp: rate,
        rate: formatRate(rate),
      }
    })
    const today = this.commissionOf(this.team.byMember(playerId, start, end))
    const claimable = this.unpaid(playerId).reduce((s, d) => s + d.commission, 0)
    return {
      player_id: p.id,
      invite_code: p.invite_code,
      invite_link: this.inviteLink(p.invite_code, origin),
      direct_count: counts.find((c) => c.level === 1)?.count ?? 0,
      team_count: counts.reduce((s, c) => s + c.count, 0),
      today_team_turnover: money(this.team.team(playerId, start, end)),
      total_team_turnover: money(this.team.team(playerId, 0, now + 1)),
      commission_total: money(this.claims.commissionPaid(playerId)),
      commission_today: money(today.commission),
      commission_claimable: money(claimable),
      levels,
    }
  }

  async qrcode(playerId: number, origin: string, size = 256) {
    const p = this.player(playerId)
    const link = this.inviteLink(p.invite_code, origin)
    const image = await QRCode.toDataURL(link, {
      type: 'image/png',
      width: size,
      margin: 2,
      errorCorrectionLevel: 'M',
    })
    return { invite_code: p.invite_code, invite_link: link, image, size }
  }

  /** liusui_new: team turnover per day and per member between two dates. */
  turnover(
    playerId: number,
    q: Page & {
      start_date?: string | undefined
      end_date?: string | undefined
      member_id?: number | undefined
      level?: number | undefined
    },
  ) {
    const end = q.end_date ?? this.today()
    const start = q.start_date ?? addDays(end, -(DEFAULT_RANGE_DAYS - 1))
    if (!isDay(start) || !isDay(end)) throw fail(AGENT_MSG.badDate)
    const days = daysBetween(start, end)
    if (days.length > MAX_RANGE_DAYS) throw fail(AGENT_MSG.rangeTooLong)
    if (days.length === 0) throw fail('开始日期不能晚于结束日期')
    if (q.member_id !== undefined && this.team.levelUnder(playerId, q.member_id) === undefined) {
      throw fail(AGENT_MSG.notInTeam)
    }
    const keep = (r: MemberTurnoverRow) =>
      (q.member_id === undefined || r.player_id === q.member_id) &&
      (q.level === undefined || r.level === q.level)

    const dayRows = days.map((day) => {
      const { start: from, end: to } = dayRange(day)
      const rows = this.team.byMember(playerId, from, to).filter(keep)
      const { commission } = this.commissionOf(rows)
      return {
        date: day,
        turnover: money(rows.reduce((s, r) => s + r.turnover_micro, 0)),
        commission: money(commission),
        bet_count: rows.reduce((s, r) => s + r.bet_count, 0),
        active_members: rows.length,
        commissionMicro: commission,
      }
    })
    const members = this.team
      .byMember(playerId, startOfDay(start), dayRange(end).end)
      .filter(keep)
      .sort((a, b) => b.turnover_micro - a.turnover_micro || a.player_id - b.player_id)
    const { page, size, offset } = pageOf(q)
    const list: z.infer<typeof turnoverMemberSchema>[] = members.slice(offset, offset + size).map((m) => {
      const p = this.player(m.player_id)
      return {
        player_id: m.player_id,
        nickname: p.nickname,
        phone: maskPhone(p.phone),
        level: m.level,
        turnover: money(m.turnover_micro),
        bet_count: m.bet_count,
      }
    })
    return {
      start_date: start,
      end_date: end,
      total_turnover: money(members.reduce((s, m) => s + m.turnover_micro, 0)),
      total_commission: money(dayRows.reduce((s, d) => s + d.commissionMicro, 0)),
      days: dayRows.map(({ commissionMicro: _omit, ...d }) => d),
      members: pagedAnswer(list, page, size, members.length),
    }
  }

  /** childsearch: the player's own team only, by exact id or part of a nickname. */
  search(playerId: number, q: Page & { keyword?: string | undefined; level?: number | undefined }) {
    const { page, size, offset } = pageOf(q)
    const { rows, total } = this.team.search(playerId, {
      keyword: q.keyword,
      level: q.level,
      limit: size,
      offset,
    })
    const ids = rows.map((r) => r.player_id)
    const { start, end } = dayRange(this.today())
    const today = this.team.turnoverOf(ids, start, end)
    const ever = this.team.turnoverOf(ids, 0, this.clock.now() + 1)
    const list: z.infer<typeof teamMemberSchema>[] = rows.map((r) => ({
      player_id: r.player_id,
      nickname: r.nickname,
      phone: maskPhone(r.phone),
      level: r.level,
      inviter_id: r.inviter_id,
      joined_at: r.joined_at,
      direct_count: r.direct_count,
      today_turnover: money(today.get(r.player_id) ?? 0),
      total_turnover: money(ever.get(r.player_id) ?? 0),
    }))
    return pagedAnswer(list, page, size, total)
  }

  rebateConfig(): DataOf<typeof agentRebateConfig> {
    const { tiers, levelRatesBp, claimWindowDays } = this.settings
    return {
      tiers: tiers.map((t, i) => {
        const next = tiers[i + 1]
        return {
          tier: i + 1,
          min_turnover: money(t.minTurnoverMicro),
          max_turnover: next ? money(next.minTurnoverMicro) : null,
          rate_bp: t.rateBp,
          rate: formatRate(t.rateBp),
        }
      }),
      commission_levels: levelRatesBp.map((rate, i) => ({
        level: i + 1,
        rate_bp: rate,
        rate: formatRate(rate),
      })),
      claim_window_days: claimWindowDays,
    }
  }

  summary(playerId: number): DataOf<typeof rebateSummary> {
    const today = this.today()
    const e = this.earning(playerId, today)
    const next = this.settings.tiers[e.tier]
    const unpaid = this.unpaid(playerId)
    const rebate = unpaid.reduce((s, d) => s + d.rebate, 0)
    const commission = unpaid.reduce((s, d) => s + d.commission, 0)
    return {
      date: today,
      today_turnover: money(e.turnover),
      today_tier: e.tier,
      rate_bp: e.rateBp,
      rate: formatRate(e.rateBp),
      today_rebate: money(e.rebate),
      next_tier: next
        ? {
            tier: e.tier + 1,
            need_turnover: money(next.minTurnoverMicro - e.turnover),
            rate_bp: next.rateBp,
            rate: formatRate(next.rateBp),
          }
        : null,
      claimable: money(rebate + commission),
      claimable_rebate: money(rebate),
      claimable_commission: money(commission),
      claimed_today: this.claims.hasClaimedOn(playerId, today),
      claim_window_days: this.settings.claimWindowDays,
      days: unpaid.map((d) => AgentService.dayOut(AgentService.toRow(d))),
    }
  }

  /**
   * Pays every unpaid rebate and commission of the window into the balance, once a day. The
   * check, the claim row (UNIQUE per player and day) and the ledger postings share one
   * transaction, so a second claim, however close, pays nothing.
   */
  claim(playerId: number): z.infer<typeof rebateClaimSchema> & { balance: string } {
    return immediate(this.db, () => {
      const now = this.clock.now()
      const today = dayOf(now)
      if (this.claims.hasClaimedOn(playerId, today)) throw fail(AGENT_MSG.alreadyClaimed)
      const days = this.unpaid(playerId, now)
      const rebate = days.reduce((s, d) => s + d.rebate, 0)
      const commission = days.reduce((s, d) => s + d.commission, 0)
      if (rebate + commission === 0) throw fail(AGENT_MSG.nothingToClaim)
      const rows = days.map(AgentService.toRow)
      let id: number
      try {
        id = this.claims.record(
          {
            player_id: playerId,
            claim_day: today,
            rebate_micro: rebate,
            commission_micro: commission,
            created_at: now,
          },
          rows,
        )
      } catch (err) {
        if (err instanceof AlreadyClaimedError) throw fail(AGENT_MSG.alreadyClaimed)
        throw err
      }
      let balance = 0
      const ref = `rebate_claim:${id}`
      if (rebate > 0) {
        balance = this.ledger.post({
          playerId,
          currency: 'USDT',
          type: 'rebate',
          amountMicro: rebate,
          ref,
          memo: '返水',
          at: now,
        }).balanceAfterMicro
      }
      if (commission > 0) {
        balance = this.ledger.post({
          playerId,
          currency: 'USDT',
          type: 'rebate',
          amountMicro: commission,
          ref,
          memo: '代理佣金',
          at: now,
        }).balanceAfterMicro
      }
      return {
        id,
        claim_date: today,
        amount: money(rebate + commission),
        rebate: money(rebate),
        commission: money(commission),
        created_at: now,
        days: rows.map(AgentService.dayOut),
        balance: formatMoney(balance),
      }
    })
  }

  history(playerId: number, q: Page) {
    const { page, size, offset } = pageOf(q)
    const { rows, total } = this.claims.list(playerId, size, offset)
    const days = this.claims.daysOf(rows.map((r) => r.id))
    const list: z.infer<typeof rebateClaimSchema>[] = rows.map((r) => ({
      id: r.id,
      claim_date: r.claim_day,
      amount: money(r.rebate_micro + r.commission_micro),
      rebate: money(r.rebate_micro),
      commission: money(r.commission_micro),
      created_at: r.created_at,
      days: (days.get(r.id) ?? []).map(AgentService.dayOut),
    }))
    return pagedAnswer(list, page, size, total)
  }
}
