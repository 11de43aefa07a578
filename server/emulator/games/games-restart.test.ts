import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { oddsToMilli } from '@shared/games/config'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { fund, gamesKit, T0 } from './games-test-kit'

const dir = mkdtempSync(join(tmpdir(), 'games-restart-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('a restart in the middle of a draw', () => {
  it('settles every bet exactly once after the restart', async () => {
    const env = { DB_PATH: join(dir, 'emulator.db') }
    const a = await gamesKit(T0, 1, env)
    for (const p of a.players) fund(a, p.playerId, 10_000_000_000)
    const round = a.games.rounds.current('shishicai')
    const types = ['b1_big', 'b2_odd', 'b3_d7', 'sum_big', 'dragon', 'tie', 'b5_small', 'b4_even']
    for (const p of a.players)
      a.games.bets.placeBets(
        p.playerId,
        'shishicai',
        round.round_id,
        types.map((bet_type, i) => ({ bet_type, amount: `${(i + 1) * 3}.5` })),
      )
    const before = new Map(a.players.map((p) => [p.playerId, a.balanceMicro(p.playerId)]))
    const { db } = a.t.app.emu

    // The process "dies" halfway through the draw: the bets are marked settled but nobody is paid
    // yet. The draw's transaction never commits.
    let died = 0
    const payOut = a.games.settlement.payOut.bind(a.games.settlement)
    vi.spyOn(a.games.settlement, 'payOut').mockImplementation((r, credits) => {
      if (r.game !== 'shishicai') return payOut(r, credits)
      died++
      throw new Error('process died mid-draw')
    })
    a.t.clock.advance(round.ms_to_draw)
    expect(died).toBe(1)
    const pending = db.prepare(`SELECT COUNT(*) FROM bets WHERE status = 'pending'`).pluck().get()
    expect(pending).toBe(types.length * a.players.length)
    expect(db.prepare(`SELECT COUNT(*) FROM ledger WHERE type IN ('payout', 'refund')`).pluck().get()).toBe(0)
    expect(
      db
        .prepare(`SELECT COUNT(*) FROM game_draws WHERE game = 'shishicai' AND round_id = ?`)
        .pluck()
        .get(round.round_id),
    ).toBe(0)
    await a.t.close()

    // A new process on the same database, at the same moment, picks the draw up and finishes it.
    const b = await gamesKit(T0, 0, env)
    b.t.clock.freeze(T0 + round.ms_to_draw + 1)
    const db2 = b.t.app.emu.db
    const bets = db2
      .prepare(
        `SELECT player_id, stake_micro, odds, status, payout_micro FROM bets WHERE game = 'shishicai' AND round_id = ?`,
      )
      .all(round.round_id) as {
      player_id: number
      stake_micro: number
      odds: string
      status: string
      payout_micro: number
    }[]
    expect(bets).toHaveLength(types.length * a.players.length)
    expect(bets.every((x) => x.status === 'won' || x.status === 'lost')).toBe(true)
    for (const x of bets)
      expect(x.payout_micro).toBe(
        x.status === 'won' ? Number((BigInt(x.stake_micro) * BigInt(oddsToMilli(x.odds))) / 1000n) : 0,
      )
    // Moving the clock again settles nothing twice.
    b.t.clock.advance(120_000)
    const payoutRows = db2
      .prepare(
        `SELECT player_id, COUNT(*) AS n, SUM(amount_micro) AS total FROM ledger WHERE ref = ? GROUP BY player_id`,
      )
      .all(`round:shishicai:${round.round_id}`) as { player_id: number; n: number; total: number }[]
    for (const p of a.players) {
      const won = bets.filter((x) => x.player_id === p.playerId).reduce((s, x) => s + x.payout_micro, 0)
      const row = payoutRows.find((r) => r.player_id === p.playerId)
      expect(row?.total ?? 0).toBe(won)
      expect(row?.n ?? 0).toBe(won > 0 ? 1 : 0)
      expect(b.balanceMicro(p.playerId)).toBe((before.get(p.playerId) ?? 0) + won)
    }
    expect(
      db2
        .prepare(`SELECT COUNT(*) FROM game_draws WHERE game = 'shishicai' AND round_id = ?`)
        .pluck()
        .get(round.round_id),
    ).toBe(1)
    expect(b.t.app.emu.ledger.drift()).toEqual([])
    await b.t.close()
  })
})

describe('a new process', () => {
  it("lists the bets placed before it under their bet types' names", async () => {
    const env = { DB_PATH: join(dir, 'labels.db') }
    const a = await gamesKit(T0, 0, env)
    const [player] = a.players
    if (!player) throw new Error('no player')
    const round = a.games.rounds.current('kuaisan')
    a.games.bets.placeBets(player.playerId, 'kuaisan', round.round_id, [
      { bet_type: 'big', amount: '1' },
      { bet_type: 'sum_9', amount: '1' },
    ])
    await a.t.close()

    // Nothing in the new process has priced a kuaisan bet yet when the history is read.
    const b = await gamesKit(T0, 0, env)
    const history = await b.call({
      method: 'GET',
      url: '/api/games/bets?game=kuaisan',
      headers: { token: b.players[0]?.token ?? '' },
    })
    const labels = (history.data.list as { bet_type: string; label: string }[])
      .map((x) => [x.bet_type, x.label])
      .sort()
    expect(labels).toEqual([
      ['big', '大'],
      ['sum_9', '和值 9'],
    ])
    await b.t.close()
  })
})
