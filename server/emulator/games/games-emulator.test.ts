import { betKindsOf, oppositeOf } from '@shared/games/bet-types'
import { blockHash, lotteryFloats, walkChain, webCryptoHasher } from '@shared/games/chain'
import { GAME_CODES, type GameCode, oddsToMilli } from '@shared/games/config'
import { type BetResult, drawOutcome, FLOATS_NEEDED, settleBet } from '@shared/games/outcome'
import fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type Env, fund, type GamesKit, gamesKit, prng, T0 } from './games-test-kit'

const FUNDS = 50_000_000_000 // 50,000 USDT each

/** What a bet credits, worked out here on its own: stake × odds in exact integers, rounded down. */
const expectedPayout = (r: BetResult, stakeMicro: number, odds: string): number => {
  if (r === 'lost') return 0
  if (r === 'draw') return stakeMicro
  return Number((BigInt(stakeMicro) * BigInt(oddsToMilli(odds))) / 1000n)
}

/** Recomputes a drawn round from its revealed key the way a browser would (Web Crypto), checking the key's link to the chain. */
async function recompute(kit: GamesKit, game: GameCode, roundId: string) {
  const v: Env = await kit.call({ method: 'GET', url: `/api/games/verify?game=${game}&round_id=${roundId}` })
  if (v.code !== 1) throw new Error(`verify ${game} ${roundId}: ${v.msg}`)
  const { height } = v.data.result
  const hash = await blockHash(webCryptoHasher, height, v.data.key)
  expect(hash).toBe(v.data.result.block_hash)
  const prev = v.data.anchors[0]
  expect(
    await walkChain(
      webCryptoHasher,
      v.data.key,
      prev ? v.data.block_number - prev.block_number : v.data.block_number,
    ),
  ).toBe(prev ? prev.key : v.data.commitment.terminal_hash)
  const floats = await lotteryFloats(webCryptoHasher, hash, game, height, FLOATS_NEEDED[game])
  return drawOutcome(game, hash, floats)
}

describe('games in the emulator', () => {
  let kit: GamesKit
  // A fresh kit for each test: the rounds one plays are not there for another.
  beforeEach(async () => {
    kit = await gamesKit(T0, 1)
    for (const p of kit.players) fund(kit, p.playerId, FUNDS)
  })
  afterEach(() => kit.t.close())

  it('gives identical results from node:crypto and Web Crypto', async () => {
    const { nodeHasher } = await import('./node-hasher')
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 80 }),
        fc.stringMatching(/^[0-9a-f]{64}$/),
        async (msg, key) => {
          expect(nodeHasher.sha256Hex(key)).toBe(await webCryptoHasher.sha256Hex(key))
          expect(nodeHasher.hmacSha256Hex(key, msg)).toBe(await webCryptoHasher.hmacSha256Hex(key, msg))
        },
      ),
      { numRuns: 50 },
    )
    const c0 = await webCryptoHasher.sha256Hex('demo-secret')
    expect(nodeHasher.hmacSha256Hex(await walkChain(webCryptoHasher, c0, 3), '100000000').slice(0, 48)).toBe(
      'ff04c02e43c69f29cd97bdd469a12b0d171a09b933ec36e5',
    )
  })

  // About 1,500 HTTP calls: allowed more than the default time on a busy machine.
  it('plays 100 rounds of every game with several players; every balance matches a recomputation', {
    timeout: 120_000,
  }, async () => {
    const rnd = prng(20261122)
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T
    const start = new Map(kit.players.map((p) => [p.playerId, kit.balanceMicro(p.playerId)]))
    const placed: {
      playerId: number
      game: GameCode
      roundId: string
      type: string
      stake: number
      odds: string
    }[] = []
    for (let i = 0; i < 100; i++) {
      for (const game of GAME_CODES) {
        const types = betKindsOf(game).map((b) => b.type)
        const round: Env = await kit.call({ method: 'GET', url: `/api/games/round?game=${game}` })
        expect(round.data.state).toBe('OPEN')
        for (const p of kit.players) {
          const a = pick(types)
          let b = pick(types)
          if (b === oppositeOf(a)) b = a
          const bets = [a, b].map((bet_type) => ({
            bet_type,
            amount: (1 + Math.floor(rnd() * 2000) / 100).toFixed(2),
          }))
          const res: Env = await kit.call({
            method: 'POST',
            url: '/api/games/bet',
            headers: { token: p.token },
            payload: { game, round_id: round.data.round_id, bets },
          })
          expect(res.code, res.msg).toBe(1)
          for (const bet of bets)
            placed.push({
              playerId: p.playerId,
              game,
              roundId: round.data.round_id,
              type: bet.bet_type,
              stake: Math.round(Number(bet.amount) * 100) * 10_000,
              odds: res.data.bets.find((x: { bet_type: string }) => x.bet_type === bet.bet_type).odds,
            })
        }
      }
      kit.t.clock.advance(60_000)
    }
    kit.t.clock.advance(60_000)

    const outcomes = new Map<string, Awaited<ReturnType<typeof recompute>>>()
    for (const key of new Set(placed.map((b) => `${b.game}|${b.roundId}`))) {
      const [game, roundId] = key.split('|') as [GameCode, string]
      outcomes.set(key, await recompute(kit, game, roundId))
    }
    const expected = new Map(start)
    const expectedByBet = new Map<string, { status: BetResult; payout: number }>()
    for (const b of placed) {
      const outcome = outcomes.get(`${b.game}|${b.roundId}`)
      if (!outcome) throw new Error('missing outcome')
      const status = settleBet(b.game, b.type, outcome, kit.games.config)
      const payout = expectedPayout(status, b.stake, b.odds)
      expected.set(b.playerId, (expected.get(b.playerId) ?? 0) - b.stake + payout)
      const k = `${b.playerId}|${b.game}|${b.roundId}|${b.type}`
      const prev = expectedByBet.get(k)
      // The same side twice in one call is one bet with the stakes added.
      expectedByBet.set(k, { status, payout: (prev?.payout ?? 0) + payout })
    }
    expect(placed.length).toBe(100 * 5 * 3 * 2)
    for (const p of kit.players) expect(kit.balanceMicro(p.playerId)).toBe(expected.get(p.playerId))
    // Every bet's status and payout as the history shows them.
    for (const p of kit.players) {
      let page = 1
      for (;;) {
        const h: Env = await kit.call({
          method: 'GET',
          url: `/api/games/bets?page=${page}&page_size=100`,
          headers: { token: p.token },
        })
        for (const bet of h.data.list) {
          const want = expectedByBet.get(`${p.playerId}|${bet.game}|${bet.round_id}|${bet.bet_type}`)
          expect(bet.status).toBe(want?.status)
          expect(Math.round(Number(bet.payout) * 1e6)).toBe(want?.payout)
        }
        if (!h.data.has_more) break
        page++
      }
    }
    expect(kit.t.app.emu.ledger.drift()).toEqual([])
  })

  it('pays Σ stake × odds over winning bets plus refunded stakes at each draw (property)', async () => {
    const { db } = kit.t.app.emu
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            player: fc.nat({ max: kit.players.length - 1 }),
            game: fc.constantFrom(...GAME_CODES),
            pick: fc.nat(),
            stake: fc.integer({ min: 1_000_000, max: 50_000_000 }),
          }),
          { minLength: 1, maxLength: 25 },
        ),
        async (wanted) => {
          const accepted: { game: GameCode; roundId: string }[] = []
          for (const w of wanted) {
            const types = betKindsOf(w.game)
            const type = types[w.pick % types.length]?.type ?? 'big'
            const round = kit.games.rounds.current(w.game)
            try {
              kit.games.bets.placeBets(kit.players[w.player]?.playerId ?? 1, w.game, round.round_id, [
                { bet_type: type, amount: (w.stake / 1e6).toFixed(6) },
              ])
              accepted.push({ game: w.game, roundId: round.round_id })
            } catch (err) {
              // Both sides of a pair in one round is refused; nothing else may be.
              expect(String(err)).toContain('同一期不能同时投注')
            }
          }
          kit.t.clock.advance(60_000)
          for (const { game, roundId } of new Set(accepted.map((a) => `${a.game}|${a.roundId}`)).values()
            ? [...new Map(accepted.map((a) => [`${a.game}|${a.roundId}`, a])).values()]
            : []) {
            const bets = db
              .prepare(
                'SELECT stake_micro, odds, status, payout_micro FROM bets WHERE game = ? AND round_id = ?',
              )
              .all(game, roundId) as {
              stake_micro: number
              odds: string
              status: string
              payout_micro: number
            }[]
            expect(bets.every((b) => b.status !== 'pending')).toBe(true)
            const want =
              bets
                .filter((b) => b.status === 'won')
                .reduce((s, b) => s + expectedPayout('won', b.stake_micro, b.odds), 0) +
              bets.filter((b) => b.status === 'draw').reduce((s, b) => s + b.stake_micro, 0)
            const credited = db
              .prepare(
                `SELECT COALESCE(SUM(amount_micro), 0) FROM ledger WHERE ref = ? AND type IN ('payout', 'refund')`,
              )
              .pluck()
              .get(`round:${game}:${roundId}`) as number
            expect(credited).toBe(want)
            expect(bets.reduce((s, b) => s + b.payout_micro, 0)).toBe(want)
          }
          expect(kit.t.app.emu.ledger.drift()).toEqual([])
        },
      ),
      { numRuns: 15 },
    )
  })
})
