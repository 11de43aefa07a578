import type { Db } from '@server/db/database'
import type { ExclusionKind, LimitKind, LimitPeriod } from '@shared/contract/protection'
import type { Statement } from 'better-sqlite3'

export interface LimitRow {
  player_id: number
  kind: LimitKind
  period: LimitPeriod
  limit_micro: number | null
  pending_micro: number | null
  pending_at: number | null
  updated_at: number
}

export interface ExclusionRow {
  player_id: number
  kind: ExclusionKind
  period: string
  started_at: number
  ends_at: number
}

export interface LedgerTotalsRow {
  deposits: number
  transfer_bets: number
  withdrawals: number
  stakes: number
  payouts: number
  other: number
}

/**
 * How each ledger row counts in the net position (USDT only). A 'refund' is a tied round's stake
 * coming back (ref `round:…`, counted with payouts), a refused transfer bet (ref `transfer:…`,
 * other), or a rejected withdrawal (anything else, taken off withdrawals).
 */
const TOTALS_COLUMNS = `
  COALESCE(SUM(CASE WHEN type = 'topup' THEN amount_micro ELSE 0 END), 0) AS deposits,
  COALESCE(SUM(CASE WHEN type = 'transfer_bet' THEN amount_micro ELSE 0 END), 0) AS transfer_bets,
  COALESCE(SUM(CASE
    WHEN type IN ('withdrawal', 'withdrawal_fee') THEN -amount_micro
    WHEN type = 'refund' AND ref NOT LIKE 'round:%' AND ref NOT LIKE 'transfer:%' THEN -amount_micro
    ELSE 0 END), 0) AS withdrawals,
  COALESCE(SUM(CASE WHEN type = 'bet' THEN -amount_micro ELSE 0 END), 0) AS stakes,
  COALESCE(SUM(CASE
    WHEN type = 'payout' THEN amount_micro
    WHEN type = 'refund' AND ref LIKE 'round:%' THEN amount_micro
    ELSE 0 END), 0) AS payouts,
  COALESCE(SUM(CASE
    WHEN type IN ('rebate', 'bonus', 'deposit_bonus', 'exchange') THEN amount_micro
    WHEN type = 'refund' AND ref LIKE 'transfer:%' THEN amount_micro
    ELSE 0 END), 0) AS other`

/** The protection tables, and the sums over deposits and the ledger that limits are checked against. */
export class ProtectionRepository {
  private readonly limitsOf: Statement<[number], LimitRow>
  private readonly limitOf: Statement<[number, string, string], LimitRow>
  private readonly upsertLimit: Statement<unknown[]>
  private readonly exclusionOf: Statement<[number], ExclusionRow>
  private readonly activeExclusions: Statement<[number], ExclusionRow>
  private readonly upsertExclusion: Statement<unknown[]>
  private readonly intervalOf: Statement<[number], number>
  private readonly upsertInterval: Statement<[number, number]>
  private readonly ackOf: Statement<[string], number>
  private readonly upsertAck: Statement<[string, number]>
  private readonly depositSum: Statement<[number, number, number], number>
  private readonly lossSum: Statement<[number, number, number], number>
  private readonly totals: Statement<[number, number, number], LedgerTotalsRow>
  private readonly dailyTotals: Statement<
    [number, number, number, number, number],
    LedgerTotalsRow & { day: number }
  >

  constructor(db: Db) {
    this.limitsOf = db.prepare('SELECT * FROM protection_limits WHERE player_id = ?')
    this.limitOf = db.prepare(
      'SELECT * FROM protection_limits WHERE player_id = ? AND kind = ? AND period = ?',
    )
    this.upsertLimit = db.prepare(
      `INSERT INTO protection_limits (player_id, kind, period, limit_micro, pending_micro, pending_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (player_id, kind, period) DO UPDATE SET limit_micro = excluded.limit_micro,
         pending_micro = excluded.pending_micro, pending_at = excluded.pending_at, updated_at = excluded.updated_at`,
    )
    this.exclusionOf = db.prepare('SELECT * FROM protection_exclusions WHERE player_id = ?')
    this.activeExclusions = db.prepare('SELECT * FROM protection_exclusions WHERE ends_at > ?')
    // An exclusion can only end later, never sooner: the stored end is the later of the two.
    this.upsertExclusion = db.prepare(
      `INSERT INTO protection_exclusions (player_id, kind, period, started_at, ends_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (player_id) DO UPDATE SET
         kind = CASE WHEN excluded.ends_at > ends_at THEN excluded.kind ELSE kind END,
         period = CASE WHEN excluded.ends_at > ends_at THEN excluded.period ELSE period END,
         started_at = CASE WHEN ends_at <= excluded.started_at THEN excluded.started_at ELSE started_at END,
         ends_at = MAX(ends_at, excluded.ends_at)`,
    )
    this.intervalOf = db
      .prepare<[number], number>('SELECT interval_minutes FROM protection_reality_checks WHERE player_id = ?')
      .pluck()
    this.upsertInterval = db.prepare(
      `INSERT INTO protection_reality_checks (player_id, interval_minutes) VALUES (?, ?)
       ON CONFLICT (player_id) DO UPDATE SET interval_minutes = excluded.interval_minutes`,
    )
    this.ackOf = db
      .prepare<[string], number>('SELECT acknowledged_at FROM protection_reality_acks WHERE token_hash = ?')
      .pluck()
    this.upsertAck = db.prepare(
      `INSERT INTO protection_reality_acks (token_hash, acknowledged_at) VALUES (?, ?)
       ON CONFLICT (token_hash) DO UPDATE SET acknowledged_at = excluded.acknowledged_at`,
    )
    // Every order counts, pending or confirmed: an order is a promise to pay that amount in.
    this.depositSum = db
      .prepare<[number, number, number], number>(
        'SELECT COALESCE(SUM(amount_micro), 0) FROM deposits WHERE player_id = ? AND created_at >= ? AND created_at < ?',
      )
      .pluck()
    // Stakes − payouts − stakes returned on tied rounds.
    this.lossSum = db
      .prepare<[number, number, number], number>(
        `SELECT COALESCE(-SUM(amount_micro), 0) FROM ledger
         WHERE player_id = ? AND created_at >= ? AND created_at < ? AND currency = 'USDT'
           AND (type IN ('bet', 'payout') OR (type = 'refund' AND ref LIKE 'round:%'))`,
      )
      .pluck()
    this.totals = db.prepare(
      `SELECT ${TOTALS_COLUMNS} FROM ledger
       WHERE player_id = ? AND created_at >= ? AND created_at < ? AND currency = 'USDT'`,
    )
    this.dailyTotals = db.prepare(
      `SELECT CAST((created_at + ?) / ? AS INTEGER) AS day, ${TOTALS_COLUMNS} FROM ledger
       WHERE player_id = ? AND created_at >= ? AND created_at < ? AND currency = 'USDT'
       GROUP BY day ORDER BY day`,
    )
  }

  limits(playerId: number): LimitRow[] {
    return this.limitsOf.all(playerId)
  }

  limit(playerId: number, kind: LimitKind, period: LimitPeriod): LimitRow | undefined {
    return this.limitOf.get(playerId, kind, period)
  }

  saveLimit(row: LimitRow): void {
    this.upsertLimit.run(
      row.player_id,
      row.kind,
      row.period,
      row.limit_micro,
      row.pending_micro,
      row.pending_at,
      row.updated_at,
    )
  }

  exclusion(playerId: number): ExclusionRow | undefined {
    return this.exclusionOf.get(playerId)
  }

  exclusionsActiveAt(now: number): ExclusionRow[] {
    return this.activeExclusions.all(now)
  }

  saveExclusion(row: ExclusionRow): void {
    this.upsertExclusion.run(row.player_id, row.kind, row.period, row.started_at, row.ends_at)
  }

  interval(playerId: number): number {
    return this.intervalOf.get(playerId) ?? 0
  }

  setInterval(playerId: number, minutes: number): void {
    this.upsertInterval.run(playerId, minutes)
  }

  acknowledgedAt(tokenHash: string): number | undefined {
    return this.ackOf.get(tokenHash)
  }

  acknowledge(tokenHash: string, at: number): void {
    this.upsertAck.run(tokenHash, at)
  }

  depositsBetween(playerId: number, from: number, to: number): number {
    return this.depositSum.get(playerId, from, to) ?? 0
  }

  netLossBetween(playerId: number, from: number, to: number): number {
    return this.lossSum.get(playerId, from, to) ?? 0
  }

  totalsBetween(playerId: number, from: number, to: number): LedgerTotalsRow {
    const row = this.totals.get(playerId, from, to)
    if (!row) throw new Error('an aggregate always has a row')
    return row
  }

  /** Totals per day: `day` is the whole days since 1970-01-01 of the shifted clock (the CST day number). */
  totalsByDay(
    playerId: number,
    from: number,
    to: number,
    offsetMs: number,
    dayMs: number,
  ): (LedgerTotalsRow & { day: number })[] {
    return this.dailyTotals.all(offsetMs, dayMs, playerId, from, to)
  }
}
