import type { Db } from '@server/db/database'
import type { EmuClock } from './clock'
import { WorldClockRepository } from './world-clock-repository'

/** How often, in world time, the last time seen is written while the clock just runs. */
export const CLOCK_SEEN_EVERY_MS = 5_000

/**
 * Keeps the emulator's world clock in the database, so a restart on the same file carries it on
 * instead of falling back to real time: its mode and shift on every change, and the last world
 * time seen every few seconds, so the clock after a restart is never earlier than before it (a
 * tester who advanced it, a system clock set back).
 */
export class WorldClockStore {
  private readonly rows
  private savedSeen = Number.NEGATIVE_INFINITY

  constructor(
    private readonly db: Db,
    private readonly clock: EmuClock,
  ) {
    this.rows = new WorldClockRepository(db)
  }

  /** Takes up the kept clock (at start-up), then keeps it from now on. Returns a function that stops keeping it. */
  start(): () => void {
    const row = this.rows.get()
    if (row)
      this.clock.resume({ mode: row.mode, offsetMs: row.offset_ms, frozenAt: row.frozen_at }, row.seen_at)
    this.save()
    return this.clock.onChange(() => this.save())
  }

  /** Writes the clock's mode and the time now. */
  save(): void {
    if (!this.db.open) return
    const kept = this.clock.kept()
    const now = this.clock.worldNow()
    // A clock set back on purpose (a tester's forced move) takes the time seen back with it.
    this.rows.save({ mode: kept.mode, offset_ms: kept.offsetMs, frozen_at: kept.frozenAt, seen_at: now })
    this.savedSeen = now
  }

  /** For the ticker: writes the time seen when it has moved on by `CLOCK_SEEN_EVERY_MS`. */
  tick(now: number): void {
    if (now - this.savedSeen >= CLOCK_SEEN_EVERY_MS || now < this.savedSeen) this.save()
  }
}
