import { type Db, immediate } from '@server/db/database'
import { fail } from '@server/http/api-error'
import { type GuardedPassword, PasswordGuardRepository } from './password-guard-repository'
import { hashPassword, verifyPassword } from './passwords'

export interface GuardLimits {
  /** Wrong passwords allowed in a row before the lock; the last of them starts it. */
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

/** Checks of one player's secret counted in this process and not yet answered. */
interface Pending {
  count: number
  /** Checks waiting for a slot: woken each time a pending check is answered. */
  waiters: (() => void)[]
}

/**
 * The one place a password hash is compared (`server/emulator/account/guard-scan.test.ts` fails
 * if any other module calls `verifyPassword`).
 *
 * Counts password checks per player and secret, and locks after too many wrong ones in a row. The
 * state lives in SQLite, so a restart does not lift a lock.
 *
 * `failures` is every check counted since the last right password: the wrong ones and those still
 * being compared. A check is counted before the hash is compared, in one write transaction, so no
 * more than `maxFailures` comparisons are ever under way or wrong at once. A check that finds every
 * try taken while some are still being compared waits for them: a right one among them frees the
 * tries again (so right passwords sent in parallel never answer "locked"), and the wrong one that
 * completes `maxFailures` wrong ones starts the lock. While the lock lasts every answer is the
 * same, right password or wrong, because none is compared. A right password clears the count
 * (checks still being compared stay counted).
 *
 * Times come from `now`, which callers give as the emulator's world clock, never a scope's clock:
 * a tester's scope moving its own time must not lift a lock.
 */
export class PasswordGuard {
  private readonly rows
  private readonly pending = new Map<number, Pending>()

  constructor(
    private readonly db: Db,
    kind: GuardedPassword,
    private readonly now: () => number,
  ) {
    this.rows = new PasswordGuardRepository(db, kind)
  }

  /** The time the lock ends, while it lasts. */
  lockedUntil(playerId: number): number | null {
    const row = this.rows.read(playerId)
    return row?.locked_until != null && row.locked_until > this.now() ? row.locked_until : null
  }

  /** Wrong passwords left before the lock (0 while locked). */
  attemptsLeft(playerId: number, limits: GuardLimits): number {
    const row = this.rows.read(playerId)
    if (!row) return limits.maxFailures
    if (row.locked_until != null && row.locked_until > this.now()) return 0
    if (row.locked_until != null) return limits.maxFailures
    return Math.max(0, limits.maxFailures - row.failures)
  }

  /** Refuses with the lock's message while the lock lasts. */
  assertUnlocked(playerId: number, messages: GuardMessages): void {
    const until = this.lockedUntil(playerId)
    if (until !== null) throw fail(messages.locked(formatWait(until - this.now())))
  }

  private pendingOf(playerId: number): Pending {
    let p = this.pending.get(playerId)
    if (!p) {
      p = { count: 0, waiters: [] }
      this.pending.set(playerId, p)
    }
    return p
  }

  /**
   * Counts the check, or says it must wait for the checks under way, or that it has just locked;
   * refuses while locked.
   */
  private claim(
    playerId: number,
    limits: GuardLimits,
    messages: GuardMessages,
  ): 'counted' | 'wait' | 'locked' {
    return immediate(this.db, () => {
      this.assertUnlocked(playerId, messages)
      const row = this.rows.read(playerId)
      // A lock that has run out starts a fresh count.
      if (row?.locked_until != null) this.rows.clear(playerId)
      const counted = row?.locked_until != null ? 0 : (row?.failures ?? 0)
      if (counted >= limits.maxFailures) {
        if ((this.pending.get(playerId)?.count ?? 0) > 0) return 'wait'
        // Every try taken and none under way here: checks counted by a process that stopped
        // before answering, or by another process. They count as wrong. The refusal is thrown
        // after the commit: thrown in here, it would roll the lock back.
        this.rows.lock(playerId, this.now() + limits.lockMs)
        return 'locked'
      }
      this.rows.count(playerId)
      this.pendingOf(playerId).count++
      return 'counted'
    })
  }

  /** Forgets a player's count and lock (the secret was proved another way: a reset by SMS). */
  clear(playerId: number): void {
    this.rows.clear(playerId)
  }

  /** Answers one counted check: clears the count on a right password, else may start the lock. */
  private settle(
    playerId: number,
    limits: GuardLimits,
    right: boolean,
  ): { lockedNow: boolean; left: number } {
    const p = this.pendingOf(playerId)
    p.count--
    try {
      return immediate(this.db, () => {
        const row = this.rows.read(playerId)
        if (right) {
          // Checks still being compared were counted before this one was answered: they stay.
          if (row) this.rows.setFailures(playerId, p.count)
          return { lockedNow: false, left: limits.maxFailures - p.count }
        }
        const failures = row?.locked_until != null ? 0 : (row?.failures ?? 0)
        if (failures - p.count >= limits.maxFailures) {
          this.rows.lock(playerId, this.now() + limits.lockMs)
          return { lockedNow: true, left: 0 }
        }
        return { lockedNow: false, left: Math.max(0, limits.maxFailures - failures) }
      })
    } finally {
      const woken = p.waiters.splice(0)
      if (p.count === 0 && woken.length === 0) this.pending.delete(playerId)
      for (const wake of woken) wake()
    }
  }

  /**
   * Counts one check of `password` against the stored hash, compares, and clears the count if it
   * is right. Refuses (a business failure with the message) when locked or wrong.
   */
  async check(
    playerId: number,
    limits: GuardLimits,
    messages: GuardMessages,
    storedHash: string,
    password: string,
  ): Promise<void> {
    for (let claim = this.claim(playerId, limits, messages); claim !== 'counted'; ) {
      if (claim === 'locked') throw fail(messages.locked(formatWait(limits.lockMs)))
      await new Promise<void>((resolve) => this.pendingOf(playerId).waiters.push(resolve))
      claim = this.claim(playerId, limits, messages)
    }
    let right: boolean
    try {
      right = await verifyPassword(storedHash, password)
    } catch (err) {
      this.settle(playerId, limits, false)
      throw err
    }
    const { lockedNow, left } = this.settle(playerId, limits, right)
    if (!right) throw fail(lockedNow ? messages.lockedNow(formatWait(limits.lockMs)) : messages.wrong(left))
  }

  /** Clears the count and any lock. Call inside a transaction or alone. */
  reset(playerId: number): void {
    this.rows.clear(playerId)
  }
}

/** A real hash to check against when the phone is unknown, so a miss takes as long as a wrong password. */
let dummyHash: Promise<string> | null = null

/**
 * Logging in: the one check not counted per account, because anyone who knows a phone number could
 * otherwise lock its owner out. Login is limited per client address instead (`RATE_LIMIT_LOGIN`
 * on its route). An unknown phone is compared against a dummy hash, so it takes as long as a
 * wrong password. Every other password check goes through a `PasswordGuard`.
 */
export async function signInMatches(storedHash: string | undefined, password: string): Promise<boolean> {
  if (storedHash === undefined) {
    dummyHash ??= hashPassword('not-a-real-password-0')
    await verifyPassword(await dummyHash, password)
    return false
  }
  return verifyPassword(storedHash, password)
}

/** How long a lock still lasts, in hours and minutes, rounded up (`3小时`, `2小时1分钟`, `45分钟`). */
export function formatWait(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000))
  const h = Math.floor(minutes / 60)
  const m = minutes % 60
  if (h === 0) return `${m}分钟`
  return m === 0 ? `${h}小时` : `${h}小时${m}分钟`
}
