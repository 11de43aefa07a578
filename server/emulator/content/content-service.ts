import type { Db } from '@server/db/database'
import { notFound } from '@server/http/api-error'
import { EVERYONE, type Publish, publishNothing } from '@server/realtime/event-hub'
import type { activityStatusSchema, activitySummarySchema, prizePool } from '@shared/contract/content'
import type { DataOf } from '@shared/contract/endpoint'
import { maskName } from '@shared/mask'
import { formatMoney } from '@shared/money'
import type { z } from 'zod'
import { applyRate, formatRate } from '../agent/rebate'
import type { EmuClock } from '../clock'
import { AnnouncementRepository } from './announcement-repository'
import type { Activity, Content } from './content-fixtures'
import { PrizePoolRepository } from './prize-pool-repository'

const WINNERS_SHOWN = 20
const STATUS_ORDER = { ongoing: 0, upcoming: 1, ended: 2 } as const

type Status = z.infer<typeof activityStatusSchema>

/** Activities, content pages and the prize pool, from fixtures and (for the pool) the ledger and the bets table. */
export class ContentService {
  private readonly pool: PrizePoolRepository
  readonly announcements: AnnouncementRepository
  /** Announcements published by this time have been announced on the push channel. */
  private announcedUpTo: number | null = null

  constructor(
    db: Db,
    private readonly clock: EmuClock,
    readonly content: Content,
    private readonly publish: Publish = publishNothing,
  ) {
    this.pool = new PrizePoolRepository(db)
    this.announcements = new AnnouncementRepository(db)
  }

  /**
   * Timed job: puts each announcement whose publishing time has come since the last run on the push
   * channel. The first run only notes the time (what was published before is not news).
   */
  announceDue(now: number): void {
    const from = this.announcedUpTo
    if (from !== null && now <= from) return
    this.announcedUpTo = now
    if (from === null) return
    for (const a of this.announcements.publishedBetween(from, now)) this.publish('announcement', a, EVERYONE)
  }

  private status(a: Activity, now: number): Status {
    if (now < a.starts_at) return 'upcoming'
    if (a.ends_at !== null && now >= a.ends_at) return 'ended'
    return 'ongoing'
  }

  private summaryOf(a: Activity, now: number): z.infer<typeof activitySummarySchema> {
    return {
      id: a.id,
      title: a.title,
      summary: a.summary,
      category: a.category,
      cover: a.cover,
      starts_at: a.starts_at,
      ends_at: a.ends_at,
      status: this.status(a, now),
    }
  }

  activities() {
    const now = this.clock.now()
    const list = this.content.activities
      .map((a) => this.summaryOf(a, now))
      .sort((x, y) => STATUS_ORDER[x.status] - STATUS_ORDER[y.status] || y.starts_at - x.starts_at)
    return { list }
  }

  activity(id: number) {
    const a = this.content.activities.find((x) => x.id === id)
    if (!a) throw notFound('活动不存在')
    return { ...this.summaryOf(a, this.clock.now()), content_html: a.content_html, images: a.images }
  }

  /** One activity's images, or those of every activity not yet ended. */
  images(id: number | undefined) {
    if (id !== undefined) return { list: this.activity(id).images }
    const now = this.clock.now()
    return {
      list: this.content.activities.filter((a) => this.status(a, now) !== 'ended').flatMap((a) => a.images),
    }
  }

  prizePool(): DataOf<typeof prizePool> {
    const now = this.clock.now()
    const { baseMicro, shareBp, winnerMinPayoutMicro, winners } = this.content.prizePool
    const fed = applyRate(this.pool.totalStakes(now), shareBp)
    const fromBets = this.pool.recentWins(winnerMinPayoutMicro, now, WINNERS_SHOWN).map((w) => ({
      name: maskName(w.nickname),
      game: w.game,
      amount: formatMoney(w.payout_micro),
      won_at: w.settled_at,
    }))
    const seeded = winners
      .filter((w) => w.wonAt <= now)
      .map((w) => ({
        name: maskName(w.name),
        game: w.game,
        amount: formatMoney(w.amountMicro),
        won_at: w.wonAt,
      }))
    return {
      amount: formatMoney(baseMicro + fed),
      rate_bp: shareBp,
      rate: formatRate(shareBp),
      updated_at: now,
      winners: [...fromBets, ...seeded].sort((a, b) => b.won_at - a.won_at).slice(0, WINNERS_SHOWN),
    }
  }
}
