import type { Db } from '../../db/database'

export interface WinnerRow {
  nickname: string
  game: string
  payout_micro: number
  settled_at: number
}

/** Reads the pool's inputs from the bets table; the games never write anything for the pool. */
export class PrizePoolRepository {
  private readonly stakes
  private readonly winners

  constructor(db: Db) {
    this.stakes = db.prepare<[number], { total: number }>(
      'SELECT COALESCE(SUM(stake_micro), 0) AS total FROM bets WHERE placed_at <= ?',
    )
    this.winners = db.prepare<[number, number, number], WinnerRow>(
      `SELECT p.nickname, b.game, b.payout_micro, b.settled_at FROM bets b JOIN players p ON p.id = b.player_id
       WHERE b.status = 'won' AND b.payout_micro >= ? AND b.settled_at IS NOT NULL AND b.settled_at <= ?
       ORDER BY b.settled_at DESC, b.id DESC LIMIT ?`,
    )
  }

  /** Every stake placed by `now`. */
  totalStakes(now: number): number {
    return this.stakes.get(now)?.total ?? 0
  }

  recentWins(minPayoutMicro: number, now: number, limit: number): WinnerRow[] {
    return this.winners.all(minPayoutMicro, now, limit)
  }
}
