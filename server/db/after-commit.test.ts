import { describe, expect, it } from 'vitest'
import { afterCommit, immediate, openDatabase } from './database'
import { commitGrouped } from './group-commit'

/** What the push channel relies on: an event raised in a transaction goes out after its commit, never after a rollback. */
describe('afterCommit', () => {
  const setUp = () => {
    const db = openDatabase(':memory:')
    db.exec('CREATE TABLE t (v INTEGER)')
    return db
  }

  it('runs at once outside a transaction, and after the commit inside one', () => {
    const db = setUp()
    const seen: string[] = []
    afterCommit(db, () => seen.push('now'))
    immediate(db, () => {
      db.prepare('INSERT INTO t VALUES (1)').run()
      afterCommit(db, () => seen.push(`committed ${db.inTransaction ? 'in' : 'out of'} transaction`))
      seen.push('inside')
    })
    expect(seen).toEqual(['now', 'inside', 'committed out of transaction'])
  })

  it('drops what a rolled-back transaction or savepoint queued, keeps the rest', () => {
    const db = setUp()
    const seen: string[] = []
    expect(() =>
      immediate(db, () => {
        afterCommit(db, () => seen.push('lost'))
        throw new Error('refused')
      }),
    ).toThrow('refused')
    immediate(db, () => {
      afterCommit(db, () => seen.push('outer'))
      try {
        immediate(db, () => {
          afterCommit(db, () => seen.push('undone savepoint'))
          throw new Error('inner refused')
        })
      } catch {
        // the savepoint alone is undone
      }
      immediate(db, () => afterCommit(db, () => seen.push('kept savepoint')))
      expect(seen).toEqual([])
    })
    expect(seen).toEqual(['outer', 'kept savepoint'])
  })

  it('waits for a grouped commit, and drops a unit that was refused', async () => {
    const db = setUp()
    const seen: string[] = []
    const ok = commitGrouped(db, () => afterCommit(db, () => seen.push('a')))
    const bad = commitGrouped(db, () => {
      afterCommit(db, () => seen.push('b'))
      throw new Error('no')
    })
    expect(seen).toEqual([])
    await ok
    await expect(bad).rejects.toThrow('no')
    expect(seen).toEqual(['a'])
  })
})
