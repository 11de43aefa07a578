import { BUSINESS_UTC_OFFSET_MS, dayOf, dayStartOf } from '../business-day'
import type { GameCode, GamesConfig } from './config'

/**
 * Rounds (docs/game-rules.md, "Rounds"). Block game: one round per block, numbered by the height. Hash size:
 * heights divisible by `draw_every_blocks`, numbered by the height. Lottery games: one draw a
 * minute on the first such height at or after the minute's end, numbered YYYYMMDD + 4-digit
 * sequence in the business day's time (China Standard Time). A block of height h comes at h × block_ms.
 */

export type Timing = Pick<GamesConfig, 'block_ms' | 'draw_every_blocks'>
export type RoundState = 'OPEN' | 'SEALED' | 'DRAWN'

export interface Round {
  readonly game: GameCode
  /** The height for hash games, the issue number for lottery games. */
  readonly roundId: string
  /** The block that decides the round. */
  readonly height: number
  readonly drawAt: number
  readonly sealAt: number
}

const MINUTE = 60_000
const DAY_MINUTES = 1440

export const isLottery = (game: GameCode): boolean =>
  game === 'kuaisan' || game === 'shishicai' || game === 'saiche'

export const heightAt = (t: number, timing: Timing): number => Math.floor(t / timing.block_ms)

const drawPeriod = (timing: Timing) => timing.block_ms * timing.draw_every_blocks
const ceilTo = (t: number, step: number) => Math.ceil(t / step) * step

/** YYYYMMDD and sequence 1–1440 of the minute starting at `minuteStart` (UTC ms), in local time. */
export function issueOfMinute(minuteStart: number): string {
  const seq = Math.floor((minuteStart - dayStartOf(minuteStart)) / MINUTE) + 1
  return `${dayOf(minuteStart).replaceAll('-', '')}${String(seq).padStart(4, '0')}`
}

/** The minute (UTC ms of its start) an issue number names, or null when it is not one. */
export function minuteOfIssue(issue: string): number | null {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{4})$/.exec(issue)
  if (!m) return null
  const [y, mo, d, s] = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])]
  if (s < 1 || s > DAY_MINUTES || mo < 1 || mo > 12 || d < 1 || d > 31) return null
  const midnight = Date.UTC(y, mo - 1, d)
  if (new Date(midnight).getUTCDate() !== d) return null
  return midnight - BUSINESS_UTC_OFFSET_MS + (s - 1) * MINUTE
}

/** The height that decides the round of this index. */
function heightOfIndex(game: GameCode, index: number, timing: Timing): number {
  if (game === 'qukuai') return index
  if (game === 'hassize') return index * timing.draw_every_blocks
  // A minute draws on the first draw height at or after its end.
  return ceilTo((index + 1) * MINUTE, drawPeriod(timing)) / timing.block_ms
}

/** One round per index: the height (block game), height / draw_every_blocks (hash size) or the minute (lottery). */
function roundOfIndex(game: GameCode, index: number, sealMs: number, timing: Timing): Round {
  const height = heightOfIndex(game, index, timing)
  const roundId = isLottery(game) ? issueOfMinute(index * MINUTE) : String(height)
  const drawAt = height * timing.block_ms
  return { game, roundId, height, drawAt, sealAt: drawAt - sealMs }
}

/** The smallest round index whose draw comes strictly after t. */
function firstIndexAfter(game: GameCode, t: number, timing: Timing): number {
  if (game === 'qukuai') return heightAt(t, timing) + 1
  if (game === 'hassize') return Math.floor(t / drawPeriod(timing)) + 1
  // Step forward from a minute that surely draws earlier. Only draw times are compared, so no
  // issue number is built on the way (this runs for every bet).
  let m = Math.floor(t / MINUTE) - Math.ceil(drawPeriod(timing) / MINUTE) - 1
  while (heightOfIndex(game, m, timing) * timing.block_ms <= t) m++
  return m
}

const sealOf = (game: GameCode, config: GamesConfig) => config.games[game].seal_ms

/** The round bets go to now: the first one not yet drawn (it may already be sealed). */
export function currentRound(game: GameCode, now: number, config: GamesConfig): Round {
  return roundOfIndex(game, firstIndexAfter(game, now, config), sealOf(game, config), config)
}

/** The round after `round`. */
export function nextRound(round: Round, config: GamesConfig): Round {
  return currentRound(round.game, round.drawAt, config)
}

/** The round a round id names, or null when the id is not one of this game's. */
export function roundById(game: GameCode, roundId: string, config: GamesConfig): Round | null {
  const seal = sealOf(game, config)
  if (isLottery(game)) {
    const minute = minuteOfIssue(roundId)
    return minute === null ? null : roundOfIndex(game, minute / MINUTE, seal, config)
  }
  if (!/^\d{1,15}$/.test(roundId)) return null
  const height = Number(roundId)
  if (game === 'hassize') {
    if (height % config.draw_every_blocks !== 0) return null
    return roundOfIndex(game, height / config.draw_every_blocks, seal, config)
  }
  return roundOfIndex(game, height, seal, config)
}

/** Rounds drawn in (after, upTo], oldest first; at most `limit` of the newest. */
export function roundsDrawnIn(
  game: GameCode,
  after: number,
  upTo: number,
  config: GamesConfig,
  limit = Number.POSITIVE_INFINITY,
): Round[] {
  if (upTo <= after) return []
  const seal = sealOf(game, config)
  const first = firstIndexAfter(game, after, config)
  const last = firstIndexAfter(game, upTo, config) - 1
  const from = Math.max(first, last - limit + 1)
  const out: Round[] = []
  for (let i = from; i <= last; i++) out.push(roundOfIndex(game, i, seal, config))
  return out
}

export function roundState(round: Round, now: number): RoundState {
  if (now >= round.drawAt) return 'DRAWN'
  if (now >= round.sealAt) return 'SEALED'
  return 'OPEN'
}
