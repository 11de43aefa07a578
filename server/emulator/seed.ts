import type { Db } from '../db/database'
import { replaceAllData } from '../db/migrations'

export interface SeedContext {
  readonly fixturesDir: string
  readonly now: number
}

/**
 * A seeder does its slow work (reading fixtures, hashing passwords) first and returns the writes,
 * which run together in one transaction, so a reset is all or nothing. It writes through the
 * repositories the composition root hands it, each domain its own rows.
 */
export type Seeder = (ctx: SeedContext) => Promise<() => void>

/** Empties every data table and writes the seed; seeders run in the order given. */
export async function reseed(db: Db, seeders: readonly Seeder[], ctx: SeedContext): Promise<void> {
  const writes: (() => void)[] = []
  for (const seeder of seeders) writes.push(await seeder(ctx))
  replaceAllData(db, () => {
    for (const write of writes) write()
  })
}
