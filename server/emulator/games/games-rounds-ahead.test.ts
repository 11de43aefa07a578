import { afterEach, describe, expect, it } from 'vitest'
import { fund, type GamesKit, gamesKit, T0 } from './games-test-kit'

/** Bets on the rounds ahead, and the drawn result each bet record carries (docs/game-rules.md, "Rounds"). */

let kit: GamesKit | null = null
afterEach(async () => {
  await kit?.t.close()
  kit = null
})

async function setup() {
  const k = await gamesKit(T0, 0)
  kit = k
  const [demo] = k.players
  if (!demo) throw new Error('no player')
  fund(k, demo.playerId, 1_000_000_000)
  const bet = (game: string, roundId: string, betType = 'big') =>
    k.call({
      method: 'POST',
      url: '/api/games/bet',
      headers: { token: demo.token },
      payload: { game, round_id: roundId, bets: [{ bet_type: betType, amount: '10' }] },
    })
  const get = (url: string) => k.call({ method: 'GET', url, headers: { token: demo.token } })
  return { k, bet, get }
}

describe('rounds ahead', () => {
  it('takes the block game’s bets up to two blocks after the current one, and no further', async () => {
    const { k, bet, get } = await setup()
    const now = (await get('/api/games/round?game=qukuai')).data
    // Into the current block's seal window: the next block seals in under 3 s.
    k.t.clock.freeze(now.seal_at + 100)
    const sealed = (await get('/api/games/round?game=qukuai')).data
    expect(sealed.state).toBe('SEALED')
    expect(sealed.next.seal_at - (now.seal_at + 100)).toBeLessThan(3_000)
    const h = sealed.height
    expect((await bet('qukuai', String(h))).msg).toBe(`第 ${h} 期已封盘，请投注下一期`)
    expect((await bet('qukuai', String(h + 1))).code).toBe(1)
    expect((await bet('qukuai', String(h + 2))).code).toBe(1)
    expect((await bet('qukuai', String(h + 3))).msg).toBe(`第 ${h + 3} 期尚未开放投注`)
    expect(k.t.app.emu.ledger.drift()).toEqual([])
  })
})

describe('bet history', () => {
  it('carries the drawn result of each settled bet, and null while pending', async () => {
    const { k, bet, get } = await setup()
    const round = (await get('/api/games/round?game=kuaisan')).data
    expect((await bet('kuaisan', round.round_id)).code).toBe(1)
    const pending = (await get('/api/games/bets?page=1&page_size=10')).data.list[0]
    expect(pending).toMatchObject({ status: 'pending', result: null })
    k.t.clock.freeze(round.draw_at + 1_000)
    const settled = (await get('/api/games/bets?page=1&page_size=10')).data.list[0]
    const drawn = (await get('/api/games/results?game=kuaisan&page=1&page_size=1')).data.list[0]
    expect(settled.status).not.toBe('pending')
    expect(drawn.round_id).toBe(round.round_id)
    expect(settled.result).toEqual(drawn)
  })
})
