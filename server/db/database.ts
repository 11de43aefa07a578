import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import Database from 'better-sqlite3'

export type Db = Database.Database

/** Opens the emulator's SQLite file in WAL mode with a busy timeout, so other processes wait instead of failing. */
export function openDatabase(path: string): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
  const db = new Database(path)
  db.pragma('journal_mode = WAL')
  db.pragma('busy_timeout = 5000')
  db.pragma('synchronous = NORMAL')
  db.pragma('foreign_keys = ON')
  // Savepoints (a grouped commit runs each call in one) journal the pages they change; past 64 KiB
  // that journal would spill into a temporary file, written and deleted on every commit.
  db.pragma('temp_store = MEMORY')
  return db
}

type Runner = Database.Transaction<(fn: () => unknown) => unknown>

/** One transaction function per connection, reused: building one per call costs more than a small commit. */
const runners = new WeakMap<Db, Runner>()

/**
 * Runs fn in a BEGIN IMMEDIATE transaction: the write lock is taken up front, so balance checks
 * can't race. Inside another transaction it runs in a savepoint, undone if fn throws.
 */
export function immediate<T>(db: Db, fn: () => T): T {
  let run = runners.get(db)
  if (!run) {
    run = db.transaction((f: () => unknown) => f())
    runners.set(db, run)
  }
  return run.immediate(fn) as T
}
