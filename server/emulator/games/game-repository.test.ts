import type { Statement } from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { fund, gamesKit, T0 } from './games-test-kit'

describe('a player with a long history', () => {
  it("finds the player's bets in a round by its draw time, not by reading the whole history", async () => {
    const kit = await gamesKit(T0, 0)
    try {
      const player = kit.players[0]?.playerId ?? 0
      fund(kit, player, 1_000_000_000)
      const { db } = kit.t.app.emu
      // Settled bets of earlier rounds, one a minute.
      const history = db.prepare(
        `INSERT INTO bets (player_id, game, round_id, bet_type, stake_micro, odds, status, source, placed_at, height, draw_at)
         VALUES (?, 'kuaisan', ?, 'sum_9', 1000000, '9', 'lost', 'app', ?, ?, ?)`,
      )
      for (let i = 1; i <= 500; i++) history.run(player, `h${i}`, T0 - i * 60_000, i, T0 - i * 60_000)

      const round = kit.games.rounds.current('kuaisan')
      const place = (amount: string) =>
        kit.games.bets.placeBets(player, 'kuaisan', round.round_id, [{ bet_type: 'sum_9', amount }]).bets[0]
      const first = place('1')
      const second = place('2')
      // The second bet of the same type raises the first one.
      expect(second?.id).toBe(first?.id)
      expect(Number(second?.stake)).toBe(3)
      const pending = db
        .prepare("SELECT COUNT(*) FROM bets WHERE player_id = ? AND status = 'pending'")
        .pluck()
        .get(player)
      expect(pending).toBe(1)

      // Every statement that looks up a player's bets in one round goes through the draw time.
      const statements = Object.values((kit.games.repo as unknown as { s: Record<string, Statement> }).s)
      const inRound = statements.filter(
        (s) => /player_id = \?/.test(s.source) && /round_id = \?/.test(s.source),
      )
      expect(inRound.length).toBeGreaterThanOrEqual(1)
      for (const s of inRound) {
        const params = Array.from(s.source.matchAll(/\?/g), () => null)
        const plan = db
          .prepare(`EXPLAIN QUERY PLAN ${s.source}`)
          .all(...params)
          .map((r) => (r as { detail: string }).detail)
          .join('\n')
        expect(plan, s.source).toMatch(/bets_player_draw \(player_id=\? AND draw_at=\?\)/)
      }
    } finally {
      await kit.t.close()
    }
  })
})
