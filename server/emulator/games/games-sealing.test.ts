import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTestApp } from '@server/test-support/test-app'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { fund, type GamesKit, gamesKit, T0 } from './games-test-kit'
import { nodeHasher } from './node-hasher'

/** Sealing holds for every way of betting, whatever the clock says (docs/game-rules.md, "Sealing"). */

const dir = mkdtempSync(join(tmpdir(), 'games-sealing-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const FROM = 'THHokCProneknUpbJfWrE2SzhgP11T1J1g' // the demo player's bound bet address
const TO_BIG_SMALL = 'TTbh7qmTJjhe5cRQjWHqLg1nDh7nZdED1R'

let kit: GamesKit | null = null
afterEach(async () => {
  await kit?.t.close()
  kit = null
})

const counts = (k: GamesKit) => {
  const { db } = k.t.app.emu
  return {
    bets: db.prepare('SELECT COUNT(*) FROM bets').pluck().get(),
    ledger: db.prepare('SELECT COUNT(*) FROM ledger').pluck().get(),
    transfers: db.prepare('SELECT COUNT(*) FROM game_transfers').pluck().get(),
  }
}

describe('a drawn round stays closed', () => {
  it('refuses a bet on a drawn round after the clock is moved back, and writes nothing', async () => {
    const k = await gamesKit(T0, 0)
    kit = k
    const [demo] = k.players
    if (!demo) throw new Error('no player')
    fund(k, demo.playerId, 1_000_000_000)
    const round = k.games.rounds.current('kuaisan')
    k.t.clock.advance(round.ms_to_draw + 1)
    const drawn = await k.call({ method: 'GET', url: '/api/games/results?game=kuaisan&page=1&page_size=5' })
    expect(drawn.data.list[0].round_id).toBe(round.round_id)

    // Back to well before the draw: by the clock alone the round would be open again.
    k.t.clock.freeze(T0)
    const before = counts(k)
    const res = await k.call({
      method: 'POST',
      url: '/api/games/bet',
      headers: { token: demo.token },
      payload: { game: 'kuaisan', round_id: round.round_id, bets: [{ bet_type: 'big', amount: '10' }] },
    })
    expect(res.code).not.toBe(1)
    expect(res.msg).toBe(`第 ${round.round_id} 期已开奖`)
    expect(counts(k)).toEqual(before)

    // The round the app offers is the first one not drawn, and it takes bets.
    const now = await k.call({ method: 'GET', url: '/api/games/round?game=kuaisan' })
    expect(now.data.round_id).not.toBe(round.round_id)
    expect(now.data.draw_at).toBeGreaterThan(round.draw_at)
    expect(now.data.state).toBe('OPEN')
    const ok = await k.call({
      method: 'POST',
      url: '/api/games/bet',
      headers: { token: demo.token },
      payload: { game: 'kuaisan', round_id: now.data.round_id, bets: [{ bet_type: 'big', amount: '10' }] },
    })
    expect(ok.code, ok.msg).toBe(1)
    expect(k.t.app.emu.ledger.drift()).toEqual([])
  })

  it('refuses the block game’s drawn block the same way', async () => {
    const k = await gamesKit(T0, 0)
    kit = k
    const [demo] = k.players
    if (!demo) throw new Error('no player')
    fund(k, demo.playerId, 1_000_000_000)
    const round = k.games.rounds.current('qukuai')
    k.t.clock.advance(round.ms_to_draw + 10_000)
    k.t.clock.freeze(T0)
    expect(() =>
      k.games.bets.placeBets(demo.playerId, 'qukuai', round.round_id, [{ bet_type: 'odd', amount: '5' }]),
    ).toThrow(`第 ${round.round_id} 期已开奖`)
  })
})

describe('transfer bets are sealed like app bets', () => {
  it('plays a transfer sent 1 ms before a block on a later block, never the sealed one', async () => {
    const k = await gamesKit(T0, 0)
    kit = k
    const first = k.games.rounds.current('qukuai')
    // 1 ms before the block: an app bet on it is refused …
    k.t.clock.freeze(first.draw_at - 1)
    expect(() =>
      k.games.bets.placeBets(k.players[0]?.playerId ?? 0, 'qukuai', first.round_id, [
        { bet_type: 'big', amount: '5' },
      ]),
    ).toThrow('已封盘')
    // … and a transfer at the same moment does not land on it either.
    const res = await k.call({
      method: 'POST',
      url: '/__emu/transfers',
      payload: { from_address: FROM, to_address: TO_BIG_SMALL, amount: '15' },
    })
    expect(res.code, res.msg).toBe(1)
    expect(res.data.status).toBe('bet')
    expect(res.data.height).toBeGreaterThan(first.height)
    expect(res.data.bet.round_id).not.toBe(first.round_id)
    const seal = k.games.config.games.qukuai.seal_ms
    expect(res.data.bet.draw_at - (first.draw_at - 1)).toBeGreaterThan(seal)
  })

  it('never plays a transfer on a drawn block after the clock is moved back', async () => {
    const k = await gamesKit(T0, 0)
    kit = k
    k.games.rounds.current('qukuai')
    k.t.clock.advance(30_000)
    const latest = await k.call({ method: 'GET', url: '/api/games/results?game=qukuai&page=1&page_size=1' })
    const drawnHeight: number = latest.data.list[0].height
    k.t.clock.freeze(T0)
    const res = await k.call({
      method: 'POST',
      url: '/__emu/transfers',
      payload: { from_address: FROM, to_address: TO_BIG_SMALL, amount: '16' },
    })
    expect(res.code, res.msg).toBe(1)
    expect(res.data.height).toBeGreaterThan(drawnHeight)
  })
})

describe('payout history', () => {
  it('settles a bet at the odds it was placed at when the edge changes before its draw', async () => {
    const fixtures = join(dir, 'fixtures')
    cpSync(join(process.cwd(), 'fixtures'), fixtures, { recursive: true })
    const env = { DB_PATH: join(dir, 'odds.db'), FIXTURES_DIR: fixtures }
    const a = await gamesKit(T0, 0, env)
    const [demo] = a.players
    if (!demo) throw new Error('no player')
    fund(a, demo.playerId, 1_000_000_000)
    const round = a.games.rounds.current('saiche')
    // Every car wins somewhere: a bet on each car in position 1 has exactly one winner.
    const bets = Array.from({ length: 10 }, (_, i) => ({ bet_type: `p1_c${i + 1}`, amount: '10' }))
    const placed = a.games.bets.placeBets(demo.playerId, 'saiche', round.round_id, bets)
    expect(placed.bets.every((b) => b.odds === '9.8')).toBe(true)
    await a.t.close()

    const path = join(fixtures, 'games.json')
    const games = JSON.parse(readFileSync(path, 'utf8'))
    games.games.saiche.edge = '0.05'
    writeFileSync(path, JSON.stringify(games))
    const b = await gamesKit(T0 + round.ms_to_draw + 1, 0, env)
    kit = b
    const rules = await b.call({ method: 'GET', url: '/api/games/rules?game=saiche' })
    expect(rules.data.bet_types.find((t: { bet_type: string }) => t.bet_type === 'p1_c1').odds).toBe('9.5')
    const rows = b.t.app.emu.db
      .prepare(`SELECT odds, status, payout_micro FROM bets WHERE game = 'saiche' AND round_id = ?`)
      .all(round.round_id) as { odds: string; status: string; payout_micro: number }[]
    expect(rows.filter((r) => r.status === 'won')).toEqual([
      { odds: '9.8', status: 'won', payout_micro: 98_000_000 },
    ])
    expect(b.t.app.emu.ledger.drift()).toEqual([])
  })
})

describe('the commitment', () => {
  it('exists before block 1 draws, however long the chain takes to make', async () => {
    const env = { GAME_CHAIN_LENGTH: '100000' }
    const t = await createTestApp(env)
    try {
      // A clock that moves 0.1 ms for every hash made: 100,000 links take 10 s on it.
      let hashes = 0
      const sha = nodeHasher.sha256Hex.bind(nodeHasher)
      vi.spyOn(nodeHasher, 'sha256Hex').mockImplementation((text: string) => {
        hashes++
        return sha(text)
      })
      t.clock.now = () => T0 + Math.floor(hashes / 10)
      const games = t.app.emu.games
      const chain = games.rounds.ensureChain()
      const ready = t.clock.now()
      const block1DrawsAt = (chain.start_height + 1) * games.config.block_ms
      expect(chain.created_at).toBeGreaterThan(T0)
      expect(block1DrawsAt).toBeGreaterThan(ready)
      expect(block1DrawsAt).toBeGreaterThan(chain.created_at)
    } finally {
      vi.restoreAllMocks()
      await t.close()
    }
  })
})
