import Database from 'better-sqlite3'
import { describe, expect, it, vi } from 'vitest'
import { createTestApp } from '../test-support/test-app'
import { openDatabase } from './database'
import { migrate } from './migrations'

/**
 * The lists that show a player's (or a game's) rows newest first: the call that reads each, and
 * the table its statement reads. The statements are the ones the repositories prepare while the
 * server answers these calls, caught as they are prepared, not copies of them.
 */
const NEWEST_FIRST = [
  ['fund flow', '/api/api2/fund-flow?page=1&page_size=20', 'ledger'],
  ['fund flow of one type', '/api/api2/fund-flow?page=1&page_size=20&type=bet', 'ledger'],
  [
    'fund flow in a date range',
    '/api/api2/fund-flow?page=1&page_size=20&start_date=2026-01-01&end_date=2026-01-31',
    'ledger',
  ],
  ['bet history', '/api/games/bets?page=1&page_size=20', 'bets'],
  [
    'bet history of one game in a date range',
    '/api/games/bets?page=1&page_size=20&game=kuaisan&date_from=2026-01-01&date_to=2026-01-31',
    'bets',
  ],
  ['top-ups', '/api/api/getDepositHistory?page=1&page_size=20', 'deposits'],
  ['withdrawals', '/api/api/getWithdrawalHistory?page=1&page_size=20', 'withdrawals'],
  ['draws', '/api/games/results?game=kuaisan&page=1&page_size=20', 'game_draws'],
  ['transfer bets', '/api/games/transfers?page=1&page_size=20', 'game_transfers'],
] as const

/**
 * SQLite's plan for a statement, its parameters bound to 1 (a player id, a page): the plan does
 * not depend on the values, but better-sqlite3 runs nothing with a parameter left unbound.
 */
function explain(db: Database.Database, sql: string): string {
  const statement = db.prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
  const named = [...new Set(sql.match(/[@:$][A-Za-z_]\w*/g) ?? [])].map((n) => n.slice(1))
  const args: unknown[] = named.length
    ? [Object.fromEntries(named.map((n) => [n, 1]))]
    : Array((sql.match(/\?/g) ?? []).length).fill(1)
  return statement
    .all(...args)
    .map((r) => r.detail)
    .join('\n')
}

/** A statement that lists rows newest first: an ORDER BY with a descending key. */
const newestFirst = (sql: string, table: string) =>
  new RegExp(`\\bFROM ${table}\\b`).test(sql) && /ORDER BY [^;]*\bDESC\b/.test(sql)

describe('schema', () => {
  it('has no descending index', () => {
    const db = openDatabase(':memory:')
    try {
      migrate(db)
      // A descending index would put each new row at the front of its range, where page splits
      // rewrite the neighbouring pages too; appends at the end of the range are cheaper.
      const descending = db
        .prepare<[], string>(`SELECT name FROM sqlite_master WHERE type = 'index' AND sql LIKE '% DESC%'`)
        .pluck()
        .all()
      expect(descending).toEqual([])
    } finally {
      db.close()
    }
  })

  it('reads newest-first lists, as the repositories ask for them, backwards through an index with no sort', async () => {
    // Every statement any connection prepares from here on, in order.
    const prepared: string[] = []
    const prepare = Database.prototype.prepare
    const spy = vi.spyOn(Database.prototype, 'prepare').mockImplementation(function (
      this: Database.Database,
      source: string,
    ) {
      prepared.push(source)
      return prepare.call(this, source)
    } as typeof prepare)
    // A short games chain: these calls play no round, and a long chain costs CPU at the first one.
    const t = await createTestApp({ GAME_CHAIN_LENGTH: '5000' })
    try {
      const { token } = await t.login()
      const db = t.app.emu.db
      for (const [name, url, table] of NEWEST_FIRST) {
        const from = prepared.length
        const res = await t.app.inject({ url, headers: { token } })
        expect(res.json(), name).toMatchObject({ code: 1 })
        // The call's own statement, or (a statement the repository prepared earlier and keeps) the
        // last one prepared for that table.
        const sql =
          prepared.slice(from).findLast((s) => newestFirst(s, table)) ??
          prepared.findLast((s) => newestFirst(s, table))
        expect(sql, `${name}: no newest-first statement on ${table} was prepared`).toBeDefined()
        const plan = explain(db, sql ?? '')
        expect(plan, `${name}: ${sql}`).toMatch(/USING (COVERING )?INDEX/)
        expect(plan, `${name}: ${sql}`).not.toMatch(/TEMP B-TREE/)
      }
    } finally {
      spy.mockRestore()
      await t.close()
    }
  })
})
