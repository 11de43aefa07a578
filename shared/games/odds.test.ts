import { describe, expect, it } from 'vitest'
import { betKindsOf } from './bet-types'
import {
  EDGE_MAX_BP,
  EDGE_MIN_BP,
  edgeToBasisPoints,
  GAME_CODES,
  type GameCode,
  gamesConfigSchema,
  milliToOdds,
} from './config'
import { type Chance, chancesOf, oddsMilliFor, pricedBets } from './odds'
import { hassizeOutcome, settleBet } from './outcome'
import { fixtureConfig } from './test-config'

const cfg = fixtureConfig()

/**
 * Whether `odds × p + r` lies in [1 − e − 0.001, 1 − e], in exact integers: with p = win/total,
 * r = draw/total, odds in thousandths and e in basis points, multiply through by 10⁷ · total.
 */
function returnWithinEdge(c: Chance, oddsMilli: number, edgeBp: number): boolean {
  const ret = BigInt(oddsMilli) * BigInt(c.win) * 10_000n + BigInt(c.draw) * 10_000_000n
  const top = BigInt(10_000 - edgeBp) * 1000n * BigInt(c.total)
  const bottom = top - 10_000n * BigInt(c.total)
  return bottom <= ret && ret <= top
}

/** Win probabilities worked out by hand from the rules, independent of the code. */
const EXPECTED_WIN: Record<string, number> = {
  'qukuai.big': 0.5,
  'qukuai.odd': 0.5,
  // one digit (10/16) and one letter (6/16), either order
  'qukuai.lucky': (2 * 10 * 6) / 256,
  'qukuai.unlucky': 1 - (2 * 10 * 6) / 256,
  'hassize.big': 0.5,
  'hassize.sum_big': 0.5,
  'hassize.sum_odd': 0.5,
  'kuaisan.big': 0.5,
  'kuaisan.sum_3': 1 / 216,
  'kuaisan.sum_10': 27 / 216,
  'kuaisan.any_triple': 6 / 216,
  'kuaisan.triple_4': 1 / 216,
  'kuaisan.any_straight': 24 / 216,
  'kuaisan.pair_2': 15 / 216,
  'kuaisan.two_1_6': 30 / 216,
  'shishicai.b3_big': 0.5,
  'shishicai.b2_d7': 0.1,
  'shishicai.sum_big': 0.5,
  'shishicai.dragon': 0.45,
  'shishicai.tie': 0.1,
  'saiche.p4_big': 0.5,
  'saiche.p7_c3': 0.1,
  'saiche.p2_dragon': 0.5,
  'saiche.top2_big': 40 / 90,
  'saiche.top2_odd': 50 / 90,
}

/** Odds at a 2% edge that a reader can check by hand (p and r above). */
const REFERENCE_ODDS: Record<string, string> = {
  'qukuai.big': '1.96',
  'qukuai.lucky': '2.09',
  'qukuai.unlucky': '1.844',
  'qukuai.banker': '1.954',
  'qukuai.player': '1.954',
  'qukuai.tie': '8.319',
  'hassize.sum_even': '1.96',
  'kuaisan.big': '1.96',
  'kuaisan.sum_10': '7.84',
  'kuaisan.sum_11': '7.84',
  'kuaisan.any_triple': '35.28',
  'kuaisan.any_straight': '8.82',
  'shishicai.b1_big': '1.96',
  'shishicai.b5_d0': '9.8',
  'saiche.p1_c1': '9.8',
  'saiche.p3_odd': '1.96',
}

const row = (game: GameCode, type: string) => {
  const r = pricedBets(game, cfg).find((x) => x.type === type)
  if (!r) throw new Error(`${game}.${type} missing`)
  return r
}

describe('odds are derived from the exact chance and the declared edge', () => {
  it('returns between 1 − e − 0.001 and 1 − e on every bet type of every game', () => {
    let checked = 0
    for (const game of GAME_CODES) {
      const edgeBp = edgeToBasisPoints(cfg.games[game].edge)
      const chances = chancesOf(game, cfg)
      const priced = pricedBets(game, cfg)
      expect(priced.map((r) => r.type)).toEqual(betKindsOf(game).map((b) => b.type))
      for (const r of priced) {
        const c = chances.get(r.type)
        expect(c, `${game}.${r.type}`).toBeDefined()
        if (!c) continue
        expect(
          returnWithinEdge(c, r.oddsMilli, edgeBp),
          `${game}.${r.type} at ${milliToOdds(r.oddsMilli)}`,
        ).toBe(true)
        // A bet the player is favoured on can never ship.
        expect(r.houseEdge, `${game}.${r.type}`).toBeGreaterThan(0)
        checked++
      }
    }
    expect(checked).toBeGreaterThan(290)
  })

  it('refuses the first draft’s hand-written odds that favoured or overcharged players', () => {
    const q = chancesOf('qukuai', cfg)
    const k = chancesOf('kuaisan', cfg)
    const unlucky = q.get('unlucky')
    const sum10 = k.get('sum_10')
    if (!unlucky || !sum10) throw new Error('missing')
    expect(returnWithinEdge(unlucky, 1980, 200)).toBe(false) // paid 105.19%
    expect(returnWithinEdge(sum10, 7000, 200)).toBe(false) // a 12.5% edge
    expect(returnWithinEdge(unlucky, 1844, 200)).toBe(true)
  })

  it('matches hand-worked probabilities', () => {
    for (const [key, p] of Object.entries(EXPECTED_WIN)) {
      const [game = '', type = ''] = key.split('.')
      expect(row(game as GameCode, type).winProbability, key).toBeCloseTo(p, 12)
    }
  })

  it('refunds banker and player exactly when the points tie', () => {
    // Point values: a character is 0 with 7/16 (the digit 0 or any letter), else 1–9 with 1/16 each.
    const v = Array(10).fill(1 / 16)
    v[0] = 7 / 16
    const point = Array(10).fill(0)
    for (let a = 0; a < 10; a++) for (let b = 0; b < 10; b++) point[(a + b) % 10] += v[a] * v[b]
    const pTie = point.reduce((s: number, x: number) => s + x * x, 0)
    expect(pTie).toBeCloseTo(965 / 8192, 15)
    expect(row('qukuai', 'tie').winProbability).toBeCloseTo(pTie, 12)
    expect(row('qukuai', 'banker').refundProbability).toBeCloseTo(pTie, 12)
    expect(row('qukuai', 'banker').winProbability).toBeCloseTo(7227 / 16384, 12)
  })

  it('gives the reference odds at a 2% edge', () => {
    for (const [key, odds] of Object.entries(REFERENCE_ODDS)) {
      const [game = '', type = ''] = key.split('.')
      expect(milliToOdds(row(game as GameCode, type).oddsMilli), key).toBe(odds)
    }
  })

  it('follows the declared edge: a higher edge lowers every odd', () => {
    const at5 = gamesConfigSchema.parse({
      ...cfg,
      games: { ...cfg.games, kuaisan: { ...cfg.games.kuaisan, edge: '0.05' } },
    })
    for (const r of pricedBets('kuaisan', at5)) {
      expect(r.oddsMilli).toBeLessThan(row('kuaisan', r.type).oddsMilli)
      expect(r.houseEdge).toBeGreaterThanOrEqual(0.05 - 1e-12)
    }
    const c = chancesOf('qukuai', cfg).get('big')
    if (!c) throw new Error('missing')
    expect(oddsMilliFor(c, 100)).toBe(1980)
    expect(oddsMilliFor(c, 500)).toBe(1900)
  })

  it('refuses an edge outside 1%–5% and odds written into the fixture', () => {
    const withEdge = (edge: string) =>
      gamesConfigSchema.safeParse({ ...cfg, games: { ...cfg.games, qukuai: { ...cfg.games.qukuai, edge } } })
    expect(withEdge('0.01').success).toBe(true)
    expect(withEdge('0.05').success).toBe(true)
    expect(withEdge('0.0099').success).toBe(false)
    expect(withEdge('0.0501').success).toBe(false)
    expect(withEdge('0').success).toBe(false)
    expect(withEdge('-0.02').success).toBe(false)
    expect(withEdge('2%').success).toBe(false)
    expect([EDGE_MIN_BP, EDGE_MAX_BP]).toEqual([100, 500])
    const odds = gamesConfigSchema.safeParse({
      ...cfg,
      games: { ...cfg.games, qukuai: { ...cfg.games.qukuai, odds: { big: '1.95' } } },
    })
    expect(odds.success).toBe(false)
  })

  it('prints each bet type’s odds, chances and edge', () => {
    const lines: string[] = []
    for (const game of GAME_CODES) {
      const seen = new Set<string>()
      for (const r of pricedBets(game, cfg)) {
        const k = `${r.group}|${r.oddsMilli}|${r.winProbability}|${r.refundProbability}`
        if (seen.has(k)) continue
        seen.add(k)
        lines.push(
          `${game.padEnd(9)} ${r.type.padEnd(13)} odds ${milliToOdds(r.oddsMilli).padEnd(7)} p(win) ${r.winProbability.toFixed(5)} p(refund) ${r.refundProbability.toFixed(5)} edge ${(r.houseEdge * 100).toFixed(3)}%`,
        )
      }
    }
    console.log(`odds by bet type\n${lines.join('\n')}`)
    expect(lines.length).toBeGreaterThan(20)
  })
})

describe('hash size sum bets are bets of their own', () => {
  const hashOf = (d1: number, d2: number) => `${'0'.repeat(60)}${d2}cd${d1}`
  it.each(['big', 'small', 'odd', 'even'])('sum_%s settles differently from %s on some draws', (kind) => {
    let differ = 0
    let agree = 0
    for (let d1 = 0; d1 < 10; d1++)
      for (let d2 = 0; d2 < 10; d2++) {
        const o = hassizeOutcome(hashOf(d1, d2))
        if (settleBet('hassize', kind, o, cfg) === settleBet('hassize', `sum_${kind}`, o, cfg)) agree++
        else differ++
      }
    // Independent: each combination of the two results is equally likely (25 of 100 each).
    expect(differ).toBe(50)
    expect(agree).toBe(50)
    // Hash digit 7 (big, odd) with 4 to its left: the sum is 1 (small, odd).
    const o = hassizeOutcome(hashOf(7, 4))
    expect(o.numbers).toEqual([7, 4, 1])
    expect(settleBet('hassize', 'big', o, cfg)).toBe('won')
    expect(settleBet('hassize', 'sum_big', o, cfg)).toBe('lost')
  })
})
