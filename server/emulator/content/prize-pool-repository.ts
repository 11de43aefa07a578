import type { Db } from '@server/db/database'

export interface WinnerRow {
  nickname: string
  game: string
  payout_micro: number
  settled_at: number
}

/** Stakes in the ledger rows after `@after` (stamped by `@now`), the last row, and the latest stake's time. */
export const STAKES_SINCE = `SELECT max(id) AS last,
              coalesce(sum(CASE WHEN type = 'bet' AND created_at <= @now THEN -amount_micro END), 0) AS added,
              max(CASE WHEN type = 'bet' THEN created_at END) AS latest
       FROM ledger WHERE id > @after`

/** How far the running total of stakes has read the ledger. */
interface StakesSeen {
  /** The last ledger row read, and what it held: if it no longer holds that, the data was reset. */
  readonly lastId: number
  readonly lastAt: number
  readonly lastAmount: number
  /** Stakes in rows up to lastId, as of `asOf`. */
  readonly total: number
  readonly asOf: number
}

const NOTHING_SEEN: StakesSeen = {
  lastId: 0,
  lastAt: 0,
  lastAmount: 0,
  total: 0,
  asOf: Number.NEGATIVE_INFINITY,
}

/**
 * Reads the pool's inputs; the games never write anything for the pool. Stakes come from the
 * ledger, where every stake placed or raised is an immutable 'bet' row, so a running total reads
 * only the rows added since the last call instead of every bet ever placed.
 */
export class PrizePoolRepository {
  private readonly since
  private readonly row
  private readonly winners
  private seen = NOTHING_SEEN

  constructor(db: Db) {
    this.since = db.prepare<
      [{ after: number; now: number }],
      { last: number | null; added: number; latest: number | null }
    >(STAKES_SINCE)
    this.row = db.prepare<[number], { created_at: number; amount_micro: number }>(
      'SELECT created_at, amount_micro FROM ledger WHERE id = ?',
    )
    this.winners = db.prepare<[number, number, number], WinnerRow>(
      `SELECT p.nickname, b.game, b.payout_micro, b.settled_at FROM bets b JOIN players p ON p.id = b.player_id
       WHERE b.status = 'won' AND b.payout_micro >= ? AND b.settled_at IS NOT NULL AND b.settled_at <= ?
       ORDER BY b.settled_at DESC, b.id DESC LIMIT ?`,
    )
  }

  /** Every stake placed (or raised) by `now`. */
  totalStakes(now: number): number {
    if (!this.stillValid(now)) this.seen = NOTHING_SEEN
    const seen = this.seen
    const tail = this.since.get({ after: seen.lastId, now })
    if (!tail || tail.last === null) return seen.total
    const total = seen.total + tail.added
    // Stakes stamped after `now` (another process's clock ahead of this one) are read again next time.
    if (tail.latest === null || tail.latest <= now) {
      const last = this.row.get(tail.last)
      if (last)
        this.seen = {
          lastId: tail.last,
          lastAt: last.created_at,
          lastAmount: last.amount_micro,
          total,
          asOf: now,
        }
    }
    return total
  }

  /**
   * The running total holds while the clock has not gone back (rows counted might now lie after
   * `now`) and the last row read is still there as it was (a data reset rewrites the ledger).
   */
  private stillValid(now: number): boolean {
    const seen = this.seen
    if (seen.lastId === 0) return true
    if (now < seen.asOf) return false
    const last = this.row.get(seen.lastId)
    return last !== undefined && last.created_at === seen.lastAt && last.amount_micro === seen.lastAmount
  }

  recentWins(minPayoutMicro: number, now: number, limit: number): WinnerRow[] {
    return this.winners.all(minPayoutMicro, now, limit)
  }
}
