import { immediate } from '@server/db/database'
import { describe, expect, it } from 'vitest'
import { fund, gamesKit, T0 } from './games-test-kit'

describe('catching up on draws', () => {
  it('draws again a round whose settling was rolled back with the call that ran it', async () => {
    const kit = await gamesKit(T0, 0)
    try {
      const player = kit.players[0]?.playerId ?? 0
      fund(kit, player, 1_000_000_000)
      const round = kit.games.rounds.current('shishicai')
      const [bet] = kit.games.bets.placeBets(player, 'shishicai', round.round_id, [
        { bet_type: 'b1_big', amount: '5' },
      ]).bets
      const { db } = kit.t.app.emu
      const status = () => db.prepare('SELECT status FROM bets WHERE id = ?').pluck().get(bet?.id)
      const drawn = T0 + round.ms_to_draw + 1

      // A call catches up inside its own transaction and is then refused: its writes are undone.
      expect(() =>
        immediate(db, () => {
          kit.games.rounds.catchUp(drawn)
          expect(status()).not.toBe('pending')
          throw new Error('refused')
        }),
      ).toThrow('refused')
      expect(status()).toBe('pending')

      // The next call, a moment later, settles the round again.
      kit.games.rounds.catchUp(drawn + 1)
      expect(status()).not.toBe('pending')
    } finally {
      await kit.t.close()
    }
  })
})
