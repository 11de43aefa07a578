import type { Db } from '@server/db/database'

export interface ClaimDayRow {
  day: string
  turnover_micro: number
  rate_bp: number
  rebate_micro: number
  team_turnover_micro: number
  commission_micro: number
}

export interface ClaimRow {
  id: number
  player_id: number
  claim_day: string
  rebate_micro: number
  commission_micro: number
  created_at: number
}

export class AlreadyClaimedError extends Error {
  override name = 'AlreadyClaimedError'
}

/** Rebate claims and the days each one paid for. */
export class RebateRepository {
  private readonly paid
  private readonly claimedOn
  private readonly insertClaim
  private readonly insertDay
  private readonly page
  private readonly count
  private readonly commissionTotal

  constructor(private readonly db: Db) {
    this.paid = db.prepare<
      [{ player: number; from: string; to: string }],
      { day: string; rebate_micro: number; commission_micro: number }
    >(
      `SELECT day, SUM(rebate_micro) AS rebate_micro, SUM(commission_micro) AS commission_micro
       FROM rebate_claim_days WHERE player_id = @player AND day >= @from AND day <= @to GROUP BY day`,
    )
    this.claimedOn = db.prepare<[number, string], { id: number }>(
      'SELECT id FROM rebate_claims WHERE player_id = ? AND claim_day = ?',
    )
    this.insertClaim = db.prepare(
      `INSERT INTO rebate_claims (player_id, claim_day, rebate_micro, commission_micro, created_at)
       VALUES (@player_id, @claim_day, @rebate_micro, @commission_micro, @created_at)`,
    )
    this.insertDay = db.prepare(
      `INSERT INTO rebate_claim_days (claim_id, player_id, day, turnover_micro, rate_bp, rebate_micro, team_turnover_micro, commission_micro)
       VALUES (@claim_id, @player_id, @day, @turnover_micro, @rate_bp, @rebate_micro, @team_turnover_micro, @commission_micro)`,
    )
    this.page = db.prepare<[number, number, number], ClaimRow>(
      'SELECT * FROM rebate_claims WHERE player_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?',
    )
    this.count = db.prepare<[number], { n: number }>(
      'SELECT COUNT(*) AS n FROM rebate_claims WHERE player_id = ?',
    )
    this.commissionTotal = db.prepare<[number], { total: number }>(
      'SELECT COALESCE(SUM(commission_micro), 0) AS total FROM rebate_claims WHERE player_id = ?',
    )
  }

  /** What earlier claims already paid for each day in [from, to]. */
  paidByDay(playerId: number, from: string, to: string): Map<string, { rebate: number; commission: number }> {
    const out = new Map<string, { rebate: number; commission: number }>()
    for (const r of this.paid.all({ player: playerId, from, to })) {
      out.set(r.day, { rebate: r.rebate_micro, commission: r.commission_micro })
    }
    return out
  }

  hasClaimedOn(playerId: number, day: string): boolean {
    return this.claimedOn.get(playerId, day) !== undefined
  }

  /**
   * Records a claim and its days. A second claim by the same player on the same day breaks the
   * UNIQUE constraint and throws AlreadyClaimedError, whatever checks ran before.
   */
  record(claim: Omit<ClaimRow, 'id'>, days: readonly ClaimDayRow[]): number {
    let id: number
    try {
      id = Number(this.insertClaim.run(claim).lastInsertRowid)
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new AlreadyClaimedError()
      throw err
    }
    for (const d of days) this.insertDay.run({ ...d, claim_id: id, player_id: claim.player_id })
    return id
  }

  list(playerId: number, limit: number, offset: number): { rows: ClaimRow[]; total: number } {
    return { rows: this.page.all(playerId, limit, offset), total: this.count.get(playerId)?.n ?? 0 }
  }

  daysOf(claimIds: readonly number[]): Map<number, ClaimDayRow[]> {
    const out = new Map<number, ClaimDayRow[]>()
    if (claimIds.length === 0) return out
    const rows = this.db
      .prepare(
        `SELECT claim_id, day, turnover_micro, rate_bp, rebate_micro, team_turnover_micro, commission_micro
         FROM rebate_claim_days WHERE claim_id IN (${claimIds.map(() => '?').join(',')}) ORDER BY day DESC`,
      )
      .all(...claimIds) as (ClaimDayRow & { claim_id: number })[]
    for (const { claim_id, ...day } of rows) {
      const list = out.get(claim_id) ?? []
      list.push(day)
      out.set(claim_id, list)
    }
    return out
  }

  /** Commission paid out by all the player's claims. */
  commissionPaid(playerId: number): number {
    return this.commissionTotal.get(playerId)?.total ?? 0
  }
}
