import { betTypesOf } from './bet-types'
import type { GameCode, GamesConfig } from './config'
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
 * Exact win chances (game-rules §8), found by running the real settlement over every outcome of
 * a weighted, exhaustive outcome space — so the rules page and the odds check use the same code
 * that pays players. Hex characters, dice, digits and cars are taken as uniform (the 32-bit floats'
 * bias is below 10⁻⁹).
 */

export interface Chance {
  /** Probability the bet wins. */
  readonly win: number
  /** Probability the stake is refunded. */
  readonly draw: number
}

export interface EdgeRow extends Chance {
  readonly type: string
  readonly label: string
  readonly group: string
  readonly oddsMilli: number
  /** 1 − expected return per unit staked: win × odds + draw. Negative favours the player. */
  readonly houseEdge: number
}

type Space = Iterable<{ outcome: Outcome; weight: number }>

const HEX_DIGITS = '0123456789'
const PAD = '0'.repeat(58)

/**
 * Block game: the last five characters decide everything but the hash digit, which is the first
 * digit from the right. Each character is a digit (1/16 each) or a letter (6/16, all letters read
 * alike); when all five are letters the hash digit comes from further left, uniform over 0–9.
 * Weights are scaled by 10 so that last case splits evenly.
 */
function* qukuaiSpace(): Space {
  const symbols = [...HEX_DIGITS.split('').map((ch) => ({ ch, w: 1 })), { ch: 'a', w: 6 }]
  const rec = function* (prefix: string, w: number, depth: number): Space {
    if (depth === 5) {
      if (/\d/.test(prefix)) yield { outcome: qukuaiOutcome(`${PAD}0${prefix}`), weight: w * 10 }
      else for (const d of HEX_DIGITS) yield { outcome: qukuaiOutcome(`${PAD}${d}${prefix}`), weight: w }
      return
    }
    for (const s of symbols) yield* rec(prefix + s.ch, w * s.w, depth + 1)
  }
  yield* rec('', 1, 0)
}

/** Hash size: the hash digit is uniform over 0–9 (each digit equally likely to be the first from the right), as is the height's last digit. */
function* hassizeSpace(): Space {
  for (let d = 0; d < 10; d++)
    for (let h = 0; h < 10; h++) yield { outcome: hassizeOutcome(`${'0'.repeat(63)}${d}`, h), weight: 1 }
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

/** Racing bets look at one or two positions; any two positions hold a uniform ordered pair of distinct cars. */
function racingPositions(type: string): [number, number] {
  if (type.startsWith('top2_')) return [0, 1]
  const m = /^p(\d{1,2})_(.+)$/.exec(type)
  const p = Number(m?.[1] ?? 1) - 1
  if (m?.[2] === 'dragon' || m?.[2] === 'tiger') return [p, 9 - p]
  return [p, p === 0 ? 1 : 0]
}

function* saicheSpace(type: string): Space {
  const [i, j] = racingPositions(type)
  for (let a = 1; a <= 10; a++)
    for (let b = 1; b <= 10; b++) {
      if (a === b) continue
      const rest = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].filter((c) => c !== a && c !== b)
      const cars: number[] = []
      for (let k = 0; k < 10; k++) cars.push(k === i ? a : k === j ? b : (rest.shift() ?? 0))
      yield { outcome: saicheOutcome(cars), weight: 1 }
    }
}

const spaceOf: Record<Exclude<GameCode, 'saiche'>, () => Space> = {
  qukuai: qukuaiSpace,
  hassize: hassizeSpace,
  kuaisan: kuaisanSpace,
  shishicai: shishicaiSpace,
}

function tally(
  game: GameCode,
  types: readonly string[],
  space: Space,
  config: GamesConfig,
): Map<string, Chance> {
  const win = new Map<string, number>(types.map((t) => [t, 0]))
  const draw = new Map<string, number>(types.map((t) => [t, 0]))
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
  return new Map(types.map((t) => [t, { win: (win.get(t) ?? 0) / total, draw: (draw.get(t) ?? 0) / total }]))
}

/** Win and refund chance of every bet type of a game. */
export function winChances(game: GameCode, config: GamesConfig): Map<string, Chance> {
  const types = betTypesOf(game, config).map((b) => b.type)
  if (game === 'saiche') {
    const out = new Map<string, Chance>()
    for (const t of types) {
      const c = tally(game, [t], saicheSpace(t), config).get(t)
      if (c) out.set(t, c)
    }
    return out
  }
  return tally(game, types, spaceOf[game](), config)
}

const cache = new WeakMap<GamesConfig, Map<GameCode, EdgeRow[]>>()

/** Every bet type of a game with its odds, chances and house edge; computed once per config. */
export function edgeTable(game: GameCode, config: GamesConfig): EdgeRow[] {
  let byGame = cache.get(config)
  if (!byGame) {
    byGame = new Map()
    cache.set(config, byGame)
  }
  const hit = byGame.get(game)
  if (hit) return hit
  const chances = winChances(game, config)
  const rows = betTypesOf(game, config).map((b) => {
    const c = chances.get(b.type) ?? { win: 0, draw: 0 }
    return { ...b, ...c, houseEdge: 1 - (c.win * b.oddsMilli) / 1000 - c.draw }
  })
  byGame.set(game, rows)
  return rows
}
