import type { Db } from '@server/db/database'
import type { BetResult } from '@shared/games/outcome'
import type { Round } from '@shared/games/rounds'

export interface BetRow {
  id: number
  player_id: number
  game: string
  round_id: string
  bet_type: string
  stake_micro: number
  odds: string
  status: 'pending' | 'won' | 'lost' | 'draw'
  payout_micro: number
  source: 'app' | 'transfer'
  placed_at: number
  settled_at: number | null
  height: number
  draw_at: number
}

export interface DrawRow {
  game: string
  round_id: string
  height: number
  block_hash: string
  numbers: string
  labels: string
  draw_at: number
}

export interface NewBet {
  playerId: number
  game: string
  roundId: string
  betType: string
  stakeMicro: number
  odds: string
  source: 'app' | 'transfer'
  placedAt: number
  height: number
  drawAt: number
}

/** What one player's bets with one result came to when a round was settled. */
export interface SettledGroup {
  playerId: number
  result: BetResult
  count: number
  stakeMicro: number
  payoutMicro: number
}

/**
 * A bet's odds in thousandths, from its stored odds (at most three decimals): what a win pays per
 * 1000 staked. A draw pays the stake back (1000), a loss nothing.
 */
const MILLI = `(CASE p.result WHEN 'won' THEN CAST(ROUND(b.odds * 1000) AS INTEGER) WHEN 'draw' THEN 1000 ELSE 0 END)`

export interface RoundKey {
  game: string
  round: string
}

export interface HistoryFilter {
  playerId: number
  game?: string | undefined
  status?: string | undefined
  from?: number | undefined
  to?: number | undefined
}

export interface TransferRow {
  id: number
  player_id: number
  from_address: string
  to_address: string
  kind: string
  amount_micro: number
  height: number
  status: 'bet' | 'refunded'
  reason: string | null
  bet_id: number | null
  created_at: number
}

/** SQL of the games: bets, draws, the per-game draw cursor and transfer bets. */
export class GameRepository {
  private readonly s

  constructor(private readonly db: Db) {
    // Per connection and never written to disk: refilled for each round settled.
    db.exec(
      'CREATE TEMP TABLE IF NOT EXISTS settle_plan (bet_type TEXT PRIMARY KEY, result TEXT NOT NULL) WITHOUT ROWID',
    )
    this.s = {
      cursor: db.prepare<[string], number>('SELECT drawn_until FROM game_cursors WHERE game = ?').pluck(),
      setCursor: db.prepare(
        `INSERT INTO game_cursors (game, drawn_until) VALUES (?, ?)
         ON CONFLICT (game) DO UPDATE SET drawn_until = excluded.drawn_until`,
      ),
      pendingRounds: db
        .prepare<[string, number], string>(
          'SELECT round_id FROM game_pending_rounds WHERE game = ? AND draw_at <= ?',
        )
        .pluck(),
      // The plan of the round being settled: what each bet type did at this draw.
      clearPlan: db.prepare('DELETE FROM temp.settle_plan'),
      addPlan: db.prepare<[string, BetResult]>(
        'INSERT INTO temp.settle_plan (bet_type, result) VALUES (?, ?)',
      ),
      // What the round's pending bets come to under the plan, per player and result, each bet's
      // payout rounded down on its own (stake × milli / 1000 in SQLite's integer arithmetic, milli
      // being the odds on a win, 1000 on a draw, 0 on a loss).
      settlement: db
        .prepare<RoundKey>(
          `SELECT b.player_id, p.result, COUNT(*), SUM(b.stake_micro), SUM(b.stake_micro * ${MILLI} / 1000)
           FROM bets b JOIN temp.settle_plan p ON p.bet_type = b.bet_type
           WHERE b.game = @game AND b.round_id = @round AND b.status = 'pending'
           GROUP BY b.player_id, p.result`,
        )
        .raw(),
      // A bet type missing from the plan leaves NULL, which the NOT NULL status refuses: the
      // transaction fails rather than strand a bet.
      settleRound: db.prepare<RoundKey & { at: number }>(
        `UPDATE bets AS b SET
           (status, payout_micro) = (SELECT p.result, b.stake_micro * ${MILLI} / 1000 FROM temp.settle_plan p WHERE p.bet_type = b.bet_type),
           settled_at = @at
         WHERE game = @game AND round_id = @round AND status = 'pending'`,
      ),
      addPending: db.prepare(
        'INSERT OR IGNORE INTO game_pending_rounds (game, round_id, draw_at) VALUES (@game, @roundId, @drawAt)',
      ),
      removePending: db.prepare<RoundKey>(
        'DELETE FROM game_pending_rounds WHERE game = @game AND round_id = @round',
      ),
      insertDraw: db.prepare(
        `INSERT INTO game_draws (game, round_id, height, block_hash, numbers, labels, draw_at, bet_count, stake_micro, payout_micro)
         VALUES (@game, @round_id, @height, @block_hash, @numbers, @labels, @draw_at, @bet_count, @stake_micro, @payout_micro)
         ON CONFLICT (game, round_id) DO UPDATE SET
           bet_count = bet_count + excluded.bet_count,
           stake_micro = stake_micro + excluded.stake_micro,
           payout_micro = payout_micro + excluded.payout_micro`,
      ),
      latestDraw: db.prepare<[string], DrawRow>(
        'SELECT * FROM game_draws WHERE game = ? ORDER BY draw_at DESC LIMIT 1',
      ),
      latestDrawAt: db
        .prepare<[string], number | null>('SELECT MAX(draw_at) FROM game_draws WHERE game = ?')
        .pluck(),
      draws: db.prepare<[string, number, number], DrawRow>(
        'SELECT * FROM game_draws WHERE game = ? ORDER BY draw_at DESC LIMIT ? OFFSET ?',
      ),
      drawCount: db.prepare<[string], number>('SELECT COUNT(*) FROM game_draws WHERE game = ?').pluck(),
      draw: db.prepare<[string, string], DrawRow>('SELECT * FROM game_draws WHERE game = ? AND round_id = ?'),
      // Finds the round's bets through bets_player_draw (player_id, draw_at): by player alone it
      // would read the player's whole history on every bet.
      pendingBets: db.prepare<[number, number, string, string], BetRow>(
        `SELECT * FROM bets
         WHERE player_id = ? AND draw_at = ? AND game = ? AND round_id = ? AND status = 'pending'`,
      ),
      raise: db.prepare<[number, number]>('UPDATE bets SET stake_micro = stake_micro + ? WHERE id = ?'),
      insertBet: db.prepare<NewBet>(
        `INSERT INTO bets (player_id, game, round_id, bet_type, stake_micro, odds, status, source, placed_at, height, draw_at)
         VALUES (@playerId, @game, @roundId, @betType, @stakeMicro, @odds, 'pending', @source, @placedAt, @height, @drawAt)`,
      ),
      bet: db.prepare<[number], BetRow>('SELECT * FROM bets WHERE id = ?'),
      insertTransfer: db.prepare(
        `INSERT INTO game_transfers (player_id, from_address, to_address, kind, amount_micro, height, status, reason, bet_id, created_at)
         VALUES (@playerId, @from, @to, @kind, @amountMicro, @height, @status, @reason, @betId, @at)`,
      ),
      transfer: db.prepare<[number], TransferRow>('SELECT * FROM game_transfers WHERE id = ?'),
      transfers: db.prepare<[number, number, number], TransferRow>(
        'SELECT * FROM game_transfers WHERE player_id = ? ORDER BY id DESC LIMIT ? OFFSET ?',
      ),
      transferCount: db
        .prepare<[number], number>('SELECT COUNT(*) FROM game_transfers WHERE player_id = ?')
        .pluck(),
    }
  }

  cursor(game: string): number | undefined {
    return this.s.cursor.get(game)
  }

  setCursor(game: string, at: number): void {
    this.s.setCursor.run(game, at)
  }

  /** Rounds of a game with pending bets whose draw time has come. */
  pendingRoundsDue(game: string, now: number): string[] {
    return this.s.pendingRounds.all(game, now)
  }

  /**
   * Settles every pending bet of a round by what each bet type did at the draw (one statement for
   * the whole round) and returns what that came to per player and result.
   */
  settleRound(key: RoundKey, results: ReadonlyMap<string, BetResult>, at: number): SettledGroup[] {
    this.s.clearPlan.run()
    for (const [type, result] of results) this.s.addPlan.run(type, result)
    const rows = this.s.settlement.all(key) as [number, BetResult, number, number, number][]
    if (rows.length > 0) this.s.settleRound.run({ ...key, at })
    this.s.removePending.run(key)
    return rows.map(([playerId, result, count, stakeMicro, payoutMicro]) => ({
      playerId,
      result,
      count,
      stakeMicro,
      payoutMicro,
    }))
  }

  recordDraw(row: DrawRow & { bet_count: number; stake_micro: number; payout_micro: number }): void {
    this.s.insertDraw.run(row)
  }

  latestDraw(game: string): DrawRow | undefined {
    return this.s.latestDraw.get(game)
  }

  /** When the game's newest draw took place, or null before its first. */
  latestDrawAt(game: string): number | null {
    return this.s.latestDrawAt.get(game) ?? null
  }

  draws(game: string, limit: number, offset: number): { rows: DrawRow[]; total: number } {
    return { rows: this.s.draws.all(game, limit, offset), total: this.s.drawCount.get(game) ?? 0 }
  }

  draw(game: string, roundId: string): DrawRow | undefined {
    return this.s.draw.get(game, roundId)
  }

  /**
   * A player's pending bets in one round: a few rows (at most one app bet per type, and any
   * transferred ones). Read inside the transaction that then raises or adds to them.
   */
  pendingBets(playerId: number, round: Pick<Round, 'game' | 'roundId' | 'drawAt'>): BetRow[] {
    return this.s.pendingBets.all(playerId, round.drawAt, round.game, round.roundId)
  }

  /** Adds to a pending bet's stake; returns the bet as stored. */
  raiseBet(bet: BetRow, stakeMicro: number): BetRow {
    this.s.raise.run(stakeMicro, bet.id)
    return { ...bet, stake_micro: bet.stake_micro + stakeMicro }
  }

  /** Makes a pending bet (and marks its round as having one); returns it as stored. */
  insertBet(b: NewBet): BetRow {
    this.s.addPending.run(b)
    const inserted = this.s.bet.get(Number(this.s.insertBet.run(b).lastInsertRowid))
    if (!inserted) throw new Error('inserting a bet returned no row')
    return inserted
  }

  bet(id: number): BetRow | undefined {
    return this.s.bet.get(id)
  }

  history(
    f: HistoryFilter,
    limit: number,
    offset: number,
  ): { rows: BetRow[]; total: number; stake: number; payout: number } {
    const where = ['player_id = @playerId']
    if (f.game) where.push('game = @game')
    if (f.status) where.push('status = @status')
    if (f.from !== undefined) where.push('placed_at >= @from')
    if (f.to !== undefined) where.push('placed_at < @to')
    const cond = where.join(' AND ')
    const params = { playerId: f.playerId, game: f.game, status: f.status, from: f.from, to: f.to }
    const rows = this.db
      .prepare(
        `SELECT * FROM bets WHERE ${cond} ORDER BY placed_at DESC, id DESC LIMIT @limit OFFSET @offset`,
      )
      .all({ ...params, limit, offset }) as BetRow[]
    const agg = this.db
      .prepare(
        `SELECT COUNT(*) AS total, COALESCE(SUM(stake_micro), 0) AS stake, COALESCE(SUM(payout_micro), 0) AS payout FROM bets WHERE ${cond}`,
      )
      .get(params) as { total: number; stake: number; payout: number }
    return { rows, ...agg }
  }

  insertTransfer(t: {
    playerId: number
    from: string
    to: string
    kind: string
    amountMicro: number
    height: number
    status: 'bet' | 'refunded'
    reason: string | null
    betId: number | null
    at: number
  }): number {
    return Number(this.s.insertTransfer.run(t).lastInsertRowid)
  }

  transfer(id: number): TransferRow | undefined {
    return this.s.transfer.get(id)
  }

  transfers(playerId: number, limit: number, offset: number): { rows: TransferRow[]; total: number } {
    return {
      rows: this.s.transfers.all(playerId, limit, offset),
      total: this.s.transferCount.get(playerId) ?? 0,
    }
  }
}
