import type { GameCode, GamesConfig } from './config'
import { bankerPlayer, hashDigit, hashDigits, isLucky } from './hash-reading'

/**
 * What a block decided for one game. `numbers` are the drawn values — block game: [hash digit,
 * banker point, player point]; hash size: [hash digit, the next digit to its left, their sum mod 10];
 * fast three: the dice; time-time colour: the five balls; racing: the car in positions 1–10.
 * `labels` name the results the trend view plots (big_small, odd_even, …).
 */
export interface Outcome {
  readonly numbers: number[]
  readonly labels: Record<string, string>
}

export type BetResult = 'won' | 'lost' | 'draw'

/** Floats of lottery bytes each game's draw needs (docs/game-rules.md, "The chain" and "The games"). */
export const FLOATS_NEEDED: Record<GameCode, number> = {
  qukuai: 0,
  hassize: 0,
  kuaisan: 3,
  shishicai: 5,
  saiche: 10,
}

const bigSmall = (big: boolean) => (big ? 'big' : 'small')
const oddEven = (n: number) => (n % 2 === 1 ? 'odd' : 'even')

export const drawDice = (floats: readonly number[]): number[] =>
  floats.slice(0, 3).map((f) => Math.floor(f * 6) + 1)

export const drawBalls = (floats: readonly number[]): number[] =>
  floats.slice(0, 5).map((f) => Math.floor(f * 10))

/** Cars 1–10 drawn without replacement: position i takes pool.splice(floor(f_i × (10 − i)), 1). */
export function drawCars(floats: readonly number[]): number[] {
  const pool = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
  const out: number[] = []
  for (let i = 0; i < 10; i++) {
    const f = floats[i]
    if (f === undefined) throw new RangeError('racing needs 10 floats')
    const [car] = pool.splice(Math.floor(f * (10 - i)), 1)
    if (car === undefined) throw new RangeError('float out of range')
    out.push(car)
  }
  return out
}

export const qukuaiOutcome = (hash: string): Outcome => {
  const d = hashDigit(hash)
  const { banker, player } = bankerPlayer(hash)
  return {
    numbers: [d, banker, player],
    labels: {
      big_small: bigSmall(d >= 5),
      odd_even: oddEven(d),
      lucky: isLucky(hash) ? 'lucky' : 'unlucky',
      banker_player: banker > player ? 'banker' : banker < player ? 'player' : 'tie',
    },
  }
}

/**
 * Hash size: the plain bets read the hash digit d1; the "sum" bets read (d1 + d2) mod 10, where d2
 * is the next decimal digit to d1's left. (Not the height: draws fall on heights divisible by 20,
 * so its last digit is always 0.)
 */
export const hassizeOutcome = (hash: string): Outcome => {
  const [d = 0, d2 = 0] = hashDigits(hash, 2)
  const sum = (d + d2) % 10
  return {
    numbers: [d, d2, sum],
    labels: {
      big_small: bigSmall(d >= 5),
      odd_even: oddEven(d),
      sum_big_small: bigSmall(sum >= 5),
      sum_odd_even: oddEven(sum),
    },
  }
}

export const kuaisanOutcome = (dice: number[]): Outcome => {
  const sum = dice.reduce((a, b) => a + b, 0)
  return { numbers: dice, labels: { big_small: bigSmall(sum >= 11), odd_even: oddEven(sum) } }
}

export const shishicaiOutcome = (balls: number[]): Outcome => {
  const sum = balls.reduce((a, b) => a + b, 0)
  const first = balls[0] ?? 0
  const last = balls[4] ?? 0
  return {
    numbers: balls,
    labels: {
      sum_big_small: bigSmall(sum >= 23),
      sum_odd_even: oddEven(sum),
      dragon_tiger: first > last ? 'dragon' : first < last ? 'tiger' : 'tie',
    },
  }
}

export const saicheOutcome = (cars: number[]): Outcome => {
  const top2 = (cars[0] ?? 0) + (cars[1] ?? 0)
  const labels: Record<string, string> = {
    top2_big_small: bigSmall(top2 >= 12),
    top2_odd_even: oddEven(top2),
  }
  for (let p = 1; p <= 5; p++)
    labels[`dragon_tiger_${p}`] = (cars[p - 1] ?? 0) > (cars[10 - p] ?? 0) ? 'dragon' : 'tiger'
  return { numbers: cars, labels }
}

/** The outcome of a game at a block: hash games read the hash, lottery games the floats. */
export function drawOutcome(game: GameCode, hash: string, floats: readonly number[]): Outcome {
  switch (game) {
    case 'qukuai':
      return qukuaiOutcome(hash)
    case 'hassize':
      return hassizeOutcome(hash)
    case 'kuaisan':
      return kuaisanOutcome(drawDice(floats))
    case 'shishicai':
      return shishicaiOutcome(drawBalls(floats))
    case 'saiche':
      return saicheOutcome(drawCars(floats))
  }
}

export class UnknownBetTypeError extends Error {
  override name = 'UnknownBetTypeError'
}

type Settler = (o: Outcome) => BetResult

const won = (b: boolean): BetResult => (b ? 'won' : 'lost')
const at = (xs: readonly number[], i: number): number => {
  const v = xs[i]
  if (v === undefined) throw new RangeError(`outcome has no value at ${i}`)
  return v
}
const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0)

/** Plain sides on one value: big/small (big from `bigFrom`), odd/even. Null for other kinds. */
function side(kind: string, value: (o: Outcome) => number, bigFrom: number): Settler | null {
  switch (kind) {
    case 'big':
      return (o) => won(value(o) >= bigFrom)
    case 'small':
      return (o) => won(value(o) < bigFrom)
    case 'odd':
      return (o) => won(value(o) % 2 === 1)
    case 'even':
      return (o) => won(value(o) % 2 === 0)
    default:
      return null
  }
}

function qukuai(type: string): Settler | null {
  const bp = (o: Outcome) => [at(o.numbers, 1), at(o.numbers, 2)] as const
  switch (type) {
    case 'lucky':
      return (o) => won(o.labels.lucky === 'lucky')
    case 'unlucky':
      return (o) => won(o.labels.lucky === 'unlucky')
    // On a tie banker and player are refunded in full.
    case 'banker':
      return (o) => {
        const [b, p] = bp(o)
        return b === p ? 'draw' : won(b > p)
      }
    case 'player':
      return (o) => {
        const [b, p] = bp(o)
        return b === p ? 'draw' : won(p > b)
      }
    case 'tie':
      return (o) => {
        const [b, p] = bp(o)
        return won(b === p)
      }
    default:
      return side(type, (o) => at(o.numbers, 0), 5)
  }
}

function hassize(type: string): Settler | null {
  if (type.startsWith('sum_')) return side(type.slice(4), (o) => at(o.numbers, 2), 5)
  return side(type, (o) => at(o.numbers, 0), 5)
}

function kuaisan(type: string, tripleVoids: boolean): Settler | null {
  const dice = (o: Outcome) => [at(o.numbers, 0), at(o.numbers, 1), at(o.numbers, 2)] as const
  const isTriple = (o: Outcome) => {
    const [a, b, c] = dice(o)
    return a === b && b === c
  }
  const count = (o: Outcome, n: number) => dice(o).filter((x) => x === n).length
  if (type === 'big' || type === 'small') {
    const plain = side(type, (o) => sum(dice(o)), 11)
    return plain && tripleVoids ? (o) => (isTriple(o) ? 'lost' : plain(o)) : plain
  }
  if (type === 'odd' || type === 'even') return side(type, (o) => sum(dice(o)), 11)
  if (type === 'any_triple') return (o) => won(isTriple(o))
  if (type === 'any_straight')
    return (o) => {
      const [x, y, z] = [...dice(o)].sort((p, q) => p - q) as [number, number, number]
      return won(y === x + 1 && z === y + 1)
    }
  let m = /^sum_(\d+)$/.exec(type)
  if (m) {
    const n = Number(m[1])
    return n >= 3 && n <= 18 ? (o) => won(sum(dice(o)) === n) : null
  }
  m = /^triple_([1-6])$/.exec(type)
  if (m) {
    const n = Number(m[1])
    return (o) => won(isTriple(o) && at(o.numbers, 0) === n)
  }
  // A pair is that number exactly twice: triples are excluded.
  m = /^pair_([1-6])$/.exec(type)
  if (m) {
    const n = Number(m[1])
    return (o) => won(count(o, n) === 2)
  }
  m = /^two_([1-6])_([1-6])$/.exec(type)
  if (m) {
    const [a, b] = [Number(m[1]), Number(m[2])]
    return a < b ? (o) => won(count(o, a) > 0 && count(o, b) > 0) : null
  }
  return null
}

function shishicai(type: string): Settler | null {
  const first = (o: Outcome) => at(o.numbers, 0)
  const last = (o: Outcome) => at(o.numbers, 4)
  // Dragon and tiger lose on a tie.
  if (type === 'dragon') return (o) => won(first(o) > last(o))
  if (type === 'tiger') return (o) => won(first(o) < last(o))
  if (type === 'tie') return (o) => won(first(o) === last(o))
  if (type.startsWith('sum_')) return side(type.slice(4), (o) => sum(o.numbers), 23)
  const m = /^b([1-5])_(.+)$/.exec(type)
  if (!m) return null
  const i = Number(m[1]) - 1
  const rest = m[2] ?? ''
  const d = /^d(\d)$/.exec(rest)
  if (d) {
    const digit = Number(d[1])
    return (o) => won(at(o.numbers, i) === digit)
  }
  return side(rest, (o) => at(o.numbers, i), 5)
}

function saiche(type: string): Settler | null {
  if (type.startsWith('top2_')) return side(type.slice(5), (o) => at(o.numbers, 0) + at(o.numbers, 1), 12)
  const m = /^p(\d{1,2})_(.+)$/.exec(type)
  if (!m) return null
  const p = Number(m[1])
  if (p < 1 || p > 10) return null
  const rest = m[2] ?? ''
  if (rest === 'dragon' || rest === 'tiger') {
    if (p > 5) return null
    return rest === 'dragon'
      ? (o) => won(at(o.numbers, p - 1) > at(o.numbers, 10 - p))
      : (o) => won(at(o.numbers, p - 1) < at(o.numbers, 10 - p))
  }
  const c = /^c(\d{1,2})$/.exec(rest)
  if (c) {
    const car = Number(c[1])
    return car >= 1 && car <= 10 ? (o) => won(at(o.numbers, p - 1) === car) : null
  }
  return side(rest, (o) => at(o.numbers, p - 1), 6)
}

/**
 * The one part of the games' configuration settlement reads: a full GamesConfig is one; the
 * browser's verify page passes just this, from the published rules.
 */
export interface SettleRules {
  readonly games: { readonly kuaisan: Pick<GamesConfig['games']['kuaisan'], 'triple_voids_big_small'> }
}

const compiled = new WeakMap<SettleRules, Map<string, Settler>>()

/** The settlement function of one bet type, parsed once; throws UnknownBetTypeError for a type the game has not. */
export function settlerFor(game: GameCode, type: string, config: SettleRules): Settler {
  let byKey = compiled.get(config)
  if (!byKey) {
    byKey = new Map()
    compiled.set(config, byKey)
  }
  const key = `${game}.${type}`
  const hit = byKey.get(key)
  if (hit) return hit
  let s: Settler | null
  switch (game) {
    case 'qukuai':
      s = qukuai(type)
      break
    case 'hassize':
      s = hassize(type)
      break
    case 'kuaisan':
      s = kuaisan(type, config.games.kuaisan.triple_voids_big_small)
      break
    case 'shishicai':
      s = shishicai(type)
      break
    case 'saiche':
      s = saiche(type)
      break
  }
  if (s === null) throw new UnknownBetTypeError(`${game}: unknown bet type ${type}`)
  byKey.set(key, s)
  return s
}

/** Whether a bet of this type won, lost or is refunded (draw), given the round's outcome. */
export function settleBet(game: GameCode, type: string, outcome: Outcome, config: SettleRules): BetResult {
  return settlerFor(game, type, config)(outcome)
}

/**
 * What a settled bet credits, in micro-USDT: a win pays stake × odds (stake included), rounded
 * down to the micro-unit (odds are integer thousandths, so the product is exact before the one
 * division); a draw refunds the stake; a loss pays nothing.
 */
export function payoutMicro(result: BetResult, stakeMicro: number, oddsMilli: number): number {
  if (result === 'lost') return 0
  if (result === 'draw') return stakeMicro
  return Number((BigInt(stakeMicro) * BigInt(oddsMilli)) / 1000n)
}
