import { type BetKind, betKindsOf } from './bet-types'
import { edgeToBasisPoints, type GameCode, type GamesConfig } from './config'
import {
  hassizeOutcome,
  kuaisanOutcome,
  type Outcome,
  qukuaiOutcome,
  saicheOutcome,
  settlerFor,
  shishicaiOutcome,
} from './outcome'

/**
 * Odds are derived, never written by hand (docs/game-rules.md, "Odds"). For every bet type the
 * real settlement runs over an exhaustive, weighted outcome space, which gives the exact chance
 * `p` that the bet wins and `r` that its stake is refunded, as integer weights over a total. With
 * the game's declared house edge `e` the odds are
 *
 *     odds = floor((1 − e − r) / p × 1000) / 1000
 *
 * computed in integers, so the player's return `odds × p + r` is at most `1 − e` and at least
 * `1 − e − 0.001`. Hex characters, dice, digits and cars are taken as uniform (the 32-bit floats'
 * bias is below 10⁻⁹).
 */

/** Exact chances of one bet type: `win / total` and `draw / total`. */
export interface Chance {
  readonly win: number
  readonly draw: number
  readonly total: number
}

/** A bet type as the rules page and the bet slip show it. */
export interface PricedBet extends BetKind {
  /** Odds in integer thousandths (1960 is 1.96). */
  readonly oddsMilli: number
  /** Probability the bet wins. */
  readonly winProbability: number
  /** Probability the stake is refunded. */
  readonly refundProbability: number
  /** 1 − (odds × p + r): the house's share of each unit staked. */
  readonly houseEdge: number
}

type Space = Iterable<{ outcome: Outcome; weight: number }>

const DIGITS = '0123456789'

// Each game's outcome is read from the right of a hash (docs/game-rules.md, "Reading a hash"): the
// spaces below write only the characters that decide it, as the rest of a hash changes nothing.

/**
 * Block game: the last five characters decide everything but the hash digit, which is the first
 * digit from the right. Each character is a digit (1/16 each) or a letter (6/16; every letter reads
 * alike); when all five are letters the hash digit comes from further left, uniform over 0–9.
 * Weights are scaled by 10 so that last case splits evenly.
 */
function* qukuaiSpace(): Space {
  const symbols = [...DIGITS.split('').map((ch) => ({ ch, w: 1 })), { ch: 'a', w: 6 }]
  const rec = function* (last: string, w: number): Space {
    if (last.length === 5) {
      if (/\d/.test(last)) yield { outcome: qukuaiOutcome(last), weight: w * 10 }
      else for (const d of DIGITS) yield { outcome: qukuaiOutcome(`${d}${last}`), weight: w }
      return
    }
    for (const s of symbols) yield* rec(last + s.ch, w * s.w)
  }
  yield* rec('', 1)
}

/**
 * Hash size: reading from the right, the first digit and the next one to its left are each
 * uniform over 0–9 and independent of each other (letters in between change neither).
 */
function* hassizeSpace(): Space {
  for (let d1 = 0; d1 < 10; d1++)
    for (let d2 = 0; d2 < 10; d2++) yield { outcome: hassizeOutcome(`${d2}${d1}`), weight: 1 }
}

function* kuaisanSpace(): Space {
  for (let a = 1; a <= 6; a++)
    for (let b = 1; b <= 6; b++)
      for (let c = 1; c <= 6; c++) yield { outcome: kuaisanOutcome([a, b, c]), weight: 1 }
}

function* shishicaiSpace(): Space {
  for (let n = 0; n < 100_000; n++) {
    const balls = String(n).padStart(5, '0').split('').map(Number)
    yield { outcome: shishicaiOutcome(balls), weight: 1 }
  }
}

/**
 * Racing bets read the top two positions, or one position p (counted from 0), or p and its
 * dragon/tiger opponent 9 − p. The two positions enumerated: the top two, else p and 9 − p (a bet
 * on p alone reads only the first).
 */
function racingPositions(type: string): [number, number] {
  if (type.startsWith('top2_')) return [0, 1]
  const p = Number.parseInt(type.slice(1), 10) - 1
  return [p, 9 - p]
}

/**
 * Any two positions hold a uniform ordered pair of distinct cars: the 90 pairs at the two positions
 * a bet reads, the other positions left 0 (no bet reads them).
 */
function* saicheSpace(type: string): Space {
  const [i, j] = racingPositions(type)
  for (let a = 1; a <= 10; a++)
    for (let b = 1; b <= 10; b++) {
      if (a === b) continue
      const cars = Array.from({ length: 10 }, (_, k) => (k === i ? a : k === j ? b : 0))
      yield { outcome: saicheOutcome(cars), weight: 1 }
    }
}

const spaceOf: Record<Exclude<GameCode, 'saiche'>, () => Space> = {
  qukuai: qukuaiSpace,
  hassize: hassizeSpace,
  kuaisan: kuaisanSpace,
  shishicai: shishicaiSpace,
}

function tally(game: GameCode, types: readonly string[], space: Space, config: GamesConfig) {
  const win = new Map<string, number>()
  const draw = new Map<string, number>()
  const settlers = types.map((t) => [t, settlerFor(game, t, config)] as const)
  let total = 0
  for (const { outcome, weight } of space) {
    total += weight
    for (const [t, settle] of settlers) {
      const r = settle(outcome)
      if (r === 'won') win.set(t, (win.get(t) ?? 0) + weight)
      else if (r === 'draw') draw.set(t, (draw.get(t) ?? 0) + weight)
    }
  }
  return new Map<string, Chance>(
    types.map((t) => [t, { win: win.get(t) ?? 0, draw: draw.get(t) ?? 0, total }]),
  )
}

/** Chances depend on the rules, not on the edge: one enumeration per game and rule variant. */
const chanceCache = new Map<string, Map<string, Chance>>()

/** The exact win and refund chance of every bet type of a game. */
export function chancesOf(game: GameCode, config: GamesConfig): Map<string, Chance> {
  const key = `${game}|${config.games.kuaisan.triple_voids_big_small}`
  const hit = chanceCache.get(key)
  if (hit) return hit
  const types = betKindsOf(game).map((b) => b.type)
  let out: Map<string, Chance>
  if (game === 'saiche') {
    out = new Map()
    for (const t of types) for (const [k, c] of tally(game, [t], saicheSpace(t), config)) out.set(k, c)
  } else out = tally(game, types, spaceOf[game](), config)
  chanceCache.set(key, out)
  return out
}

/**
 * floor((1 − e − r) / p × 1000) with p = win/total, r = draw/total and e in basis points, in
 * integers: floor(((10⁴ − e)·total − 10⁴·draw) · 1000 / (10⁴ · win)).
 */
export function oddsMilliFor(chance: Chance, edgeBp: number): number {
  if (chance.win <= 0) throw new RangeError('a bet that can never win has no odds')
  const num = (BigInt(10_000 - edgeBp) * BigInt(chance.total) - 10_000n * BigInt(chance.draw)) * 1000n
  return Number(num / (10_000n * BigInt(chance.win)))
}

const priceCache = new WeakMap<GamesConfig, Map<GameCode, readonly PricedBet[]>>()

/** Every bet type of a game with its derived odds, chances and house edge; computed once per config. */
export function pricedBets(game: GameCode, config: GamesConfig): readonly PricedBet[] {
  let byGame = priceCache.get(config)
  if (!byGame) {
    byGame = new Map()
    priceCache.set(config, byGame)
  }
  const hit = byGame.get(game)
  if (hit) return hit
  const chances = chancesOf(game, config)
  const edgeBp = edgeToBasisPoints(config.games[game].edge)
  const rows = betKindsOf(game).map((kind) => {
    const c = chances.get(kind.type)
    if (!c) throw new Error(`${game}.${kind.type}: no chance computed`)
    const oddsMilli = oddsMilliFor(c, edgeBp)
    const winProbability = c.win / c.total
    const refundProbability = c.draw / c.total
    return {
      ...kind,
      oddsMilli,
      winProbability,
      refundProbability,
      houseEdge: 1 - (winProbability * oddsMilli) / 1000 - refundProbability,
    }
  })
  byGame.set(game, rows)
  return rows
}
