import type { Db } from '@server/db/database'

/**
 * Which secret a count belongs to: the payment password, or the login password checked behind a
 * session or in the protected withdrawal during a time-out or self-exclusion.
 */
export type GuardedPassword = 'pay' | 'login'

/** One player's count for one secret: checks counted since the last right one, and the lock's end. */
export interface PasswordGuardRow {
  failures: number
  locked_until: number | null
}

/** The `password_guard` table, for one secret (`kind`); the rules are PasswordGuard's. */
export class PasswordGuardRepository {
  private readonly readRow
  private readonly countRow
  private readonly setFailuresRow
  private readonly lockRow
  private readonly clearRow

  constructor(
    db: Db,
    private readonly kind: GuardedPassword,
  ) {
    this.readRow = db.prepare<[number, string], PasswordGuardRow>(
      'SELECT failures, locked_until FROM password_guard WHERE player_id = ? AND kind = ?',
    )
    this.countRow = db.prepare<[number, string], { failures: number }>(
      `INSERT INTO password_guard (player_id, kind, failures) VALUES (?, ?, 1)
       ON CONFLICT (player_id, kind) DO UPDATE SET failures = failures + 1
       RETURNING failures`,
    )
    this.setFailuresRow = db.prepare<[number, number, string]>(
      'UPDATE password_guard SET failures = ? WHERE player_id = ? AND kind = ?',
    )
    this.lockRow = db.prepare<[number, number, string]>(
      'UPDATE password_guard SET failures = 0, locked_until = ? WHERE player_id = ? AND kind = ?',
    )
    this.clearRow = db.prepare<[number, string]>(
      'DELETE FROM password_guard WHERE player_id = ? AND kind = ?',
    )
  }

  read(playerId: number): PasswordGuardRow | undefined {
    return this.readRow.get(playerId, this.kind)
  }

  /** Counts one more check; returns the count. */
  count(playerId: number): number {
    return this.countRow.get(playerId, this.kind)?.failures ?? 0
  }

  setFailures(playerId: number, failures: number): void {
    this.setFailuresRow.run(failures, playerId, this.kind)
  }

  /** Locks until `until`, the count back at 0. */
  lock(playerId: number, until: number): void {
    this.lockRow.run(until, playerId, this.kind)
  }

  clear(playerId: number): void {
    this.clearRow.run(playerId, this.kind)
  }
}
