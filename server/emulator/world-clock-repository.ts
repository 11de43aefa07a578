import type { Db } from '@server/db/database'
import type { ClockMode } from './clock'

/** The kept world clock: its mode and shift, and the last world time seen. */
export interface WorldClockRow {
  mode: ClockMode
  offset_ms: number
  frozen_at: number
  seen_at: number
}

/** The `emu_world_clock` table: one row, the world clock `WorldClockStore` keeps. */
export class WorldClockRepository {
  private readonly read
  private readonly write

  constructor(db: Db) {
    this.read = db.prepare<[], WorldClockRow>(
      'SELECT mode, offset_ms, frozen_at, seen_at FROM emu_world_clock WHERE id = 1',
    )
    this.write = db.prepare<[ClockMode, number, number, number]>(
      `INSERT INTO emu_world_clock (id, mode, offset_ms, frozen_at, seen_at) VALUES (1, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET mode = excluded.mode, offset_ms = excluded.offset_ms,
         frozen_at = excluded.frozen_at, seen_at = excluded.seen_at`,
    )
  }

  get(): WorldClockRow | undefined {
    return this.read.get()
  }

  save(row: WorldClockRow): void {
    this.write.run(row.mode, row.offset_ms, row.frozen_at, row.seen_at)
  }
}
