import { type Db, immediate } from '@server/db/database'
import { fail } from '@server/http/api-error'
import { formatWait } from '../wallet/wallet-format'

/** Which secret a count belongs to: the payment password, or the login password checked behind a session. */
export type GuardedPassword = 'pay' | 'login'

export interface GuardLimits {
  /** Checks allowed in a row before the lock; the last of them starts it. */
  readonly maxFailures: number
  readonly lockMs: number
}

/** What a refused or failed check tells the player; the locked answer never depends on the guess. */
export interface GuardMessages {
  /** A wrong password with tries left. */
  wrong(attemptsLeft: number): string
  /** The wrong password that used the last try. */
  lockedNow(wait: string): string
  /** Any password while the lock lasts. */
  locked(wait: string): string
}

interface Row {
  failures: number
  locked_until: number | null
}

/**
 * Counts password checks per player and secret, and locks after too many wrong ones in a row. The
 * state lives in SQLite, so a restart does not lift a lock.
 *
 * A check is counted before the hash is compared, in one write transaction: parallel guesses are
 * counted one after another, so no more than `maxFailures` of them ever reach the comparison, and
 * the one that takes the last try starts the lock at once. While the lock lasts every answer is the
 * same, right password or wrong, because none is compared. A right password clears the count.
 *
 * Times come from `now`, which callers give as the emulator's world clock, never a scope's clock:
 * a tester's scope moving its own time must not lift a lock.
 */
export class PasswordGuard {
  private readonly readRow
  private readonly count
  private readonly lock
  private readonly clear

  constructor(
    private readonly db: Db,
    private readonly kind: GuardedPassword,
    private readonly now: () => number,
  ) {
    this.readRow = db.prepare<[number, string], Row>(
      'SELECT failures, locked_until FROM password_guard WHERE player_id = ? AND kind = ?',
    )
    this.count = db.prepare<[number, string], { failures: number }>(
      `INSERT INTO password_guard (player_id, kind, failures) VALUES (?, ?, 1)
       ON CONFLICT (player_id, kind) DO UPDATE SET failures = failures + 1
       RETURNING failures`,
    )
    this.lock = db.prepare<[number, number, string]>(
      'UPDATE password_guard SET failures = 0, locked_until = ? WHERE player_id = ? AND kind = ?',
    )
    this.clear = db.prepare<[number, string]>('DELETE FROM password_guard WHERE player_id = ? AND kind = ?')
  }

  /** The time the lock ends, while it lasts. */
  lockedUntil(playerId: number): number | null {
    const row = this.readRow.get(playerId, this.kind)
    return row?.locked_until != null && row.locked_until > this.now() ? row.locked_until : null
  }

  /** Wrong passwords left before the lock (0 while locked). */
  attemptsLeft(playerId: number, limits: GuardLimits): number {
    const row = this.readRow.get(playerId, this.kind)
    if (!row) return limits.maxFailures
    if (row.locked_until != null && row.locked_until > this.now()) return 0
    return Math.max(0, limits.maxFailures - row.failures)
  }

  /** Refuses with the lock's message while the lock lasts. */
  assertUnlocked(playerId: number, messages: GuardMessages): void {
    const until = this.lockedUntil(playerId)
    if (until !== null) throw fail(messages.locked(formatWait(until - this.now())))
  }

  /**
   * Counts one check, then runs `compare`, then clears the count if it said yes. Refuses
   * (a business failure with the message) when locked or wrong.
   */
  async check(
    playerId: number,
    limits: GuardLimits,
    messages: GuardMessages,
    compare: () => Promise<boolean>,
  ): Promise<void> {
    const { attemptsLeft, startsLock } = immediate(this.db, () => {
      this.assertUnlocked(playerId, messages)
      const row = this.readRow.get(playerId, this.kind)
      // A lock that has run out starts a fresh count.
      if (row?.locked_until != null) this.clear.run(playerId, this.kind)
      const failures = this.count.get(playerId, this.kind)?.failures ?? 1
      const startsLock = failures >= limits.maxFailures
      if (startsLock) this.lock.run(this.now() + limits.lockMs, playerId, this.kind)
      return { attemptsLeft: Math.max(0, limits.maxFailures - failures), startsLock }
    })
    if (await compare()) {
      immediate(this.db, () => this.clear.run(playerId, this.kind))
      return
    }
    if (startsLock) throw fail(messages.lockedNow(formatWait(limits.lockMs)))
    throw fail(messages.wrong(attemptsLeft))
  }

  /** Clears the count and any lock. Call inside a transaction or alone. */
  reset(playerId: number): void {
    this.clear.run(playerId, this.kind)
  }
}
