import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type Db, openDatabase } from './database'

let dir: string
let db: Db

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'database-'))
  db = openDatabase(join(dir, 'db.sqlite'))
})

afterEach(() => {
  db.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('openDatabase', () => {
  it('opens in WAL mode, waits for locks, checks foreign keys and keeps temporary data in memory', () => {
    const pragma = (name: string) => db.pragma(name, { simple: true })
    expect(pragma('journal_mode')).toBe('wal')
    expect(pragma('busy_timeout')).toBe(5000)
    expect(pragma('synchronous')).toBe(1) // NORMAL
    expect(pragma('foreign_keys')).toBe(1)
    expect(pragma('temp_store')).toBe(2) // MEMORY: savepoint journals never spill into files
  })
})
