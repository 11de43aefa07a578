import type { Db } from '../../db/database'

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

export interface PendingGroup {
  bet_type: string
  odds: string
  n: number
  stake: number
}

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
      pendingGroups: db.prepare<[string, string], PendingGroup>(
        `SELECT bet_type, odds, COUNT(*) AS n, SUM(stake_micro) AS stake FROM bets
         WHERE game = ? AND round_id = ? AND status = 'pending' GROUP BY bet_type, odds`,
      ),
      // @plan maps "bet_type|odds" to [result, milli]: each bet pays stake × milli / 1000, rounded
      // down in SQLite's 64-bit integer arithmetic (milli is the odds on a win, 1000 on a draw, 0 on a loss).
      settleRound: db
        .prepare<RoundKey & { plan: string; at: number }>(
          `UPDATE bets SET
             status = json_extract(@plan, '$."' || bet_type || '|' || odds || '"[0]'),
             payout_micro = stake_micro * json_extract(@plan, '$."' || bet_type || '|' || odds || '"[1]') / 1000,
             settled_at = @at
           WHERE game = @game AND round_id = @round AND status = 'pending'
           RETURNING player_id, status, payout_micro`,
        )
        .raw(),
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
      draws: db.prepare<[string, number, number], DrawRow>(
        'SELECT * FROM game_draws WHERE game = ? ORDER BY draw_at DESC LIMIT ? OFFSET ?',
      ),
      drawCount: db.prepare<[string], number>('SELECT COUNT(*) FROM game_draws WHERE game = ?').pluck(),
      draw: db.prepare<[string, string], DrawRow>('SELECT * FROM game_draws WHERE game = ? AND round_id = ?'),
      playerRound: db.prepare<[number, string, string], { bet_type: string; stake: number }>(
        `SELECT bet_type, SUM(stake_micro) AS stake FROM bets
         WHERE player_id = ? AND game = ? AND round_id = ? AND status = 'pending' GROUP BY bet_type`,
      ),
      appBet: db
        .prepare<[number, string, string, string], number>(
          `SELECT id FROM bets WHERE player_id = ? AND game = ? AND round_id = ? AND bet_type = ? AND source = 'app' AND status = 'pending'`,
        )
        .pluck(),
      addStake: db.prepare('UPDATE bets SET stake_micro = stake_micro + ? WHERE id = ?'),
      insertBet: db.prepare(
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

  /** A round's pending bets grouped by type and odds: every bet of a group settles the same way. */
  pendingGroups(game: string, roundId: string): PendingGroup[] {
    return this.s.pendingGroups.all(game, roundId)
  }

  /**
   * Settles every pending bet of a round under the plan (see the statement); returns each settled
   * bet as [player_id, status, payout_micro].
   */
  settleRound(key: RoundKey, plan: string, at: number): [number, string, number][] {
    const rows = this.s.settleRound.all({ ...key, plan, at }) as [number, string, number][]
    this.s.removePending.run(key)
    return rows
  }

  recordDraw(row: DrawRow & { bet_count: number; stake_micro: number; payout_micro: number }): void {
    this.s.insertDraw.run(row)
  }

  latestDraw(game: string): DrawRow | undefined {
    return this.s.latestDraw.get(game)
  }

  draws(game: string, limit: number, offset: number): { rows: DrawRow[]; total: number } {
    return { rows: this.s.draws.all(game, limit, offset), total: this.s.drawCount.get(game) ?? 0 }
  }

  draw(game: string, roundId: string): DrawRow | undefined {
    return this.s.draw.get(game, roundId)
  }

  /** A player's pending stake per bet type in one round. */
  playerRound(playerId: number, game: string, roundId: string): Map<string, number> {
    return new Map(this.s.playerRound.all(playerId, game, roundId).map((r) => [r.bet_type, r.stake]))
  }

  /** Adds to the player's pending app bet of this type in this round, or makes one; returns its id. */
  addOrInsertBet(b: NewBet): number {
    if (b.source === 'app') {
      const id = this.s.appBet.get(b.playerId, b.game, b.roundId, b.betType)
      if (id !== undefined) {
        this.s.addStake.run(b.stakeMicro, id)
        return id
      }
    }
    this.s.addPending.run(b)
    return Number(this.s.insertBet.run(b).lastInsertRowid)
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
