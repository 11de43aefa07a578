import type { Db } from '../../db/database'

/**
 * Counts wrong payment passwords in a row per player and locks after too many. The state lives in
 * SQLite, so a restart does not lift a lock. Call the writers inside a transaction.
 */
export class PayPasswordGuard {
  private readonly read
  private readonly fail
  private readonly clear

  constructor(private readonly db: Db) {
    this.read = db.prepare<[number], { failures: number; locked_until: number | null }>(
      'SELECT failures, locked_until FROM pay_password_guard WHERE player_id = ?',
    )
    this.fail = db.prepare<[number], { failures: number }>(
      `INSERT INTO pay_password_guard (player_id, failures) VALUES (?, 1)
       ON CONFLICT (player_id) DO UPDATE SET failures = failures + 1
       RETURNING failures`,
    )
    this.clear = db.prepare(
      'UPDATE pay_password_guard SET failures = 0, locked_until = NULL WHERE player_id = ?',
    )
  }

  /** The time the lock ends, when locked at `now`. */
  lockedUntil(playerId: number, now: number): number | null {
    const row = this.read.get(playerId)
    return row?.locked_until != null && row.locked_until > now ? row.locked_until : null
  }

  /** Wrong guesses left before the lock (0 while locked). */
  attemptsLeft(playerId: number, now: number, maxFailures: number): number {
    const row = this.read.get(playerId)
    if (!row) return maxFailures
    if (this.lockedUntil(playerId, now) !== null) return 0
    return Math.max(0, maxFailures - row.failures)
  }

  /** Counts a wrong password; at `maxFailures` in a row the lock starts and the count begins again. */
  recordFailure(
    playerId: number,
    now: number,
    maxFailures: number,
    lockMs: number,
  ): { attemptsLeft: number; lockedUntil: number | null } {
    const row = this.fail.get(playerId)
    const failures = row?.failures ?? 1
    if (failures >= maxFailures) {
      const lockedUntil = now + lockMs
      this.db
        .prepare('UPDATE pay_password_guard SET failures = 0, locked_until = ? WHERE player_id = ?')
        .run(lockedUntil, playerId)
      return { attemptsLeft: 0, lockedUntil }
    }
    return { attemptsLeft: maxFailures - failures, lockedUntil: null }
  }

  /** A right password clears the count. */
  reset(playerId: number): void {
    this.clear.run(playerId)
  }
}
