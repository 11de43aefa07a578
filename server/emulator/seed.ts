import type { Db } from '../db/database'
import { dataTables } from '../db/migrations'

export interface SeedContext {
  readonly fixturesDir: string
  readonly now: number
}

/**
 * A seeder does its slow work (reading fixtures, hashing passwords) first and returns the writes,
 * which run together in one transaction, so a reset is all or nothing.
 */
export type Seeder = (ctx: SeedContext) => Promise<(db: Db) => void>

/** Empties every data table and writes the seed; seeders run in the order given. */
export async function reseed(db: Db, seeders: readonly Seeder[], ctx: SeedContext): Promise<void> {
  const writes: ((db: Db) => void)[] = []
  for (const seeder of seeders) writes.push(await seeder(ctx))
  db.transaction(() => {
    db.pragma('defer_foreign_keys = ON')
    for (const table of dataTables(db)) db.prepare(`DELETE FROM "${table}"`).run()
    for (const write of writes) write(db)
  }).immediate()
}

export const isSeeded = (db: Db): boolean =>
  (db.prepare('SELECT COUNT(*) FROM players').pluck().get() as number) > 0
