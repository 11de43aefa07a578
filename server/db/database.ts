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

/** Per connection, the work waiting for each open `immediate` (innermost last) to commit. */
const pendingAfterCommit = new WeakMap<Db, (() => void)[][]>()

/**
 * Runs fn in a BEGIN IMMEDIATE transaction: the write lock is taken up front, so balance checks
 * can't race. Inside another transaction it runs in a savepoint, undone if fn throws. What
 * `afterCommit` queued inside it runs once the outermost transaction has committed, and is dropped
 * with whatever part of it is undone.
 */
export function immediate<T>(db: Db, fn: () => T): T {
  let run = runners.get(db)
  if (!run) {
    run = db.transaction((f: () => unknown) => f())
    runners.set(db, run)
  }
  let stack = pendingAfterCommit.get(db)
  if (!stack) {
    stack = []
    pendingAfterCommit.set(db, stack)
  }
  const frame: (() => void)[] = []
  stack.push(frame)
  let result: T
  try {
    result = run.immediate(fn) as T
  } finally {
    stack.pop()
  }
  if (frame.length > 0) {
    const outer = stack.at(-1)
    if (outer) outer.push(...frame)
    else for (const work of frame) work()
  }
  return result
}

/**
 * Runs `work` once the transaction now open (through `immediate`) has committed, or at once when
 * none is. For what must not be seen before the data is: events pushed to clients.
 */
export function afterCommit(db: Db, work: () => void): void {
  const frame = pendingAfterCommit.get(db)?.at(-1)
  if (frame) frame.push(work)
  else work()
}
