import { describe, expect, it } from 'vitest'
import { openDatabase } from './database'
import { migrate } from './migrations'

/** The lists that show a player's (or a game's) rows newest first, as the repositories ask for them. */
const NEWEST_FIRST = [
  ['fund flow', 'SELECT * FROM ledger WHERE player_id = 1 ORDER BY created_at DESC, id DESC LIMIT 20'],
  [
    'fund flow of one type',
    "SELECT * FROM ledger WHERE player_id = 1 AND type = 'bet' ORDER BY created_at DESC, id DESC LIMIT 20",
  ],
  [
    'fund flow in a date range',
    'SELECT * FROM ledger WHERE player_id = 1 AND created_at >= 0 AND created_at < 9 ORDER BY created_at DESC, id DESC LIMIT 20',
  ],
  ['bet history', 'SELECT * FROM bets WHERE player_id = 1 ORDER BY placed_at DESC, id DESC LIMIT 20'],
  ['top-ups', 'SELECT * FROM deposits WHERE player_id = 1 ORDER BY created_at DESC, id DESC LIMIT 20'],
  ['withdrawals', 'SELECT * FROM withdrawals WHERE player_id = 1 ORDER BY created_at DESC, id DESC LIMIT 20'],
  ['draws', "SELECT * FROM game_draws WHERE game = 'kuaisan' ORDER BY draw_at DESC LIMIT 20"],
  ['transfer bets', 'SELECT * FROM game_transfers WHERE player_id = 1 ORDER BY id DESC LIMIT 20'],
] as const

describe('schema', () => {
  it('reads newest-first lists backwards through an ascending index, with no sort', () => {
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
      for (const [name, sql] of NEWEST_FIRST) {
        const plan = db
          .prepare<[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
          .all()
          .map((r) => r.detail)
          .join('\n')
        expect(plan, name).toMatch(/USING (COVERING )?INDEX/)
        expect(plan, name).not.toMatch(/TEMP B-TREE/)
      }
    } finally {
      db.close()
    }
  })
})
