import type { Db } from '@server/db/database'
import type { ClockMode, EmuClock } from './clock'

interface Row {
  mode: ClockMode
  offset_ms: number
  frozen_at: number
  seen_at: number
}

/** How often, in world time, the last time seen is written while the clock just runs. */
export const CLOCK_SEEN_EVERY_MS = 5_000

/**
 * Keeps the emulator's world clock in the database, so a restart on the same file carries it on
 * instead of falling back to real time: its mode and shift on every change, and the last world
 * time seen every few seconds, so the clock after a restart is never earlier than before it (a
 * tester who advanced it, a system clock set back).
 */
export class WorldClockStore {
  private readonly read
  private readonly write
  private savedSeen = Number.NEGATIVE_INFINITY

  constructor(
    private readonly db: Db,
    private readonly clock: EmuClock,
  ) {
    this.read = db.prepare<[], Row>(
      'SELECT mode, offset_ms, frozen_at, seen_at FROM emu_world_clock WHERE id = 1',
    )
    this.write = db.prepare<[ClockMode, number, number, number]>(
      `INSERT INTO emu_world_clock (id, mode, offset_ms, frozen_at, seen_at) VALUES (1, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET mode = excluded.mode, offset_ms = excluded.offset_ms,
         frozen_at = excluded.frozen_at, seen_at = excluded.seen_at`,
    )
  }

  /** Takes up the kept clock (at start-up), then keeps it from now on. Returns a function that stops keeping it. */
  start(): () => void {
    const row = this.read.get()
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
    this.write.run(kept.mode, kept.offsetMs, kept.frozenAt, now)
    this.savedSeen = now
  }

  /** For the ticker: writes the time seen when it has moved on by `CLOCK_SEEN_EVERY_MS`. */
  tick(now: number): void {
    if (now - this.savedSeen >= CLOCK_SEEN_EVERY_MS || now < this.savedSeen) this.save()
  }
}
