import { AsyncLocalStorage } from 'node:async_hooks'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type Db, openDatabase } from './database'
import { commitGrouped } from './group-commit'

let dir: string
let db: Db
let reader: Db

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'group-commit-'))
  db = openDatabase(join(dir, 'db.sqlite'))
  db.exec('CREATE TABLE t (v INTEGER NOT NULL)')
  reader = openDatabase(join(dir, 'db.sqlite'))
})

afterEach(() => {
  db.close()
  reader.close()
  rmSync(dir, { recursive: true, force: true })
})

const insert = (v: number) => db.prepare('INSERT INTO t (v) VALUES (?)').run(v)
const committed = () => reader.prepare('SELECT v FROM t ORDER BY v').pluck().all()

describe('commitGrouped', () => {
  it('calls of one turn share a transaction, and none settles before it commits', async () => {
    const seenByOthers: unknown[][] = []
    const calls = [1, 2, 3].map((v) =>
      commitGrouped(db, () => {
        insert(v)
        seenByOthers.push(committed())
        return v * 10
      }),
    )
    expect(await Promise.all(calls)).toEqual([10, 20, 30])
    // While the batch ran, another connection saw none of it.
    expect(seenByOthers).toEqual([[], [], []])
    expect(committed()).toEqual([1, 2, 3])
  })

  it('a call that throws is undone alone', async () => {
    const results = await Promise.allSettled([
      commitGrouped(db, () => insert(1)),
      commitGrouped(db, () => {
        insert(2)
        throw new Error('refused')
      }),
      commitGrouped(db, () => insert(3)),
    ])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect(committed()).toEqual([1, 3])
  })

  it("runs each call in its caller's async context", async () => {
    const als = new AsyncLocalStorage<string>()
    const seen = await Promise.all(
      ['a', 'b'].map((scope) => als.run(scope, () => commitGrouped(db, () => als.getStore()))),
    )
    expect(seen).toEqual(['a', 'b'])
  })

  it('rejects every call of a batch whose transaction cannot start', async () => {
    reader.exec('BEGIN IMMEDIATE')
    db.pragma('busy_timeout = 0')
    const results = await Promise.allSettled([commitGrouped(db, () => insert(1)), commitGrouped(db, () => 2)])
    reader.exec('ROLLBACK')
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected'])
    expect(committed()).toEqual([])
  })
})
