import { z } from 'zod'
import { isTronAddress } from '../tron'

/**
 * The games' data (fixtures/games.json): house edge, limits, sealing and timing. Shared code takes this
 * as data; nothing here holds a number of its own.
 */

export const GAME_CODES = ['qukuai', 'hassize', 'kuaisan', 'shishicai', 'saiche'] as const
export type GameCode = (typeof GAME_CODES)[number]
export const gameCodeSchema = z.enum(GAME_CODES)

/** "1.982" → 1982. Exact: no floating point. */
export function oddsToMilli(odds: string): number {
  const [whole = '0', frac = ''] = odds.split('.')
  return Number(whole) * 1000 + Number(frac.padEnd(3, '0'))
}

/** 1982 → "1.982", 8000 → "8", 31500 → "31.5". */
export function milliToOdds(milli: number): string {
  const whole = Math.floor(milli / 1000)
  const frac = String(milli % 1000)
    .padStart(3, '0')
    .replace(/0+$/, '')
  return frac ? `${whole}.${frac}` : String(whole)
}

/** The smallest and largest house edge a game may declare, in basis points (1% and 5%). */
export const EDGE_MIN_BP = 100
export const EDGE_MAX_BP = 500

/** "0.02" → 200: a decimal fraction with at most 4 places, as integer basis points. */
export function edgeToBasisPoints(edge: string): number {
  const [whole = '0', frac = ''] = edge.split('.')
  return Number(whole) * 10_000 + Number(frac.padEnd(4, '0'))
}

/**
 * A game's declared house edge as a decimal fraction ("0.02" is 2%). Every bet type's odds are
 * derived from it (docs/game-rules.md, "Odds"); a value outside 1%–5% stops the start.
 */
export const edgeString = z
  .string()
  .regex(/^0(\.\d{1,4})?$/, { error: '庄家优势须写成小数，如 "0.02"' })
  .refine((e) => edgeToBasisPoints(e) >= EDGE_MIN_BP && edgeToBasisPoints(e) <= EDGE_MAX_BP, {
    error: '庄家优势须在 1%–5% 之间（0.01–0.05）',
  })

const amount = z.string().regex(/^\d+(\.\d{1,6})?$/)

const limits = z.strictObject({
  /** Smallest stake of one bet. */
  min_stake: amount,
  /** Largest stake one player may hold on one bet type in one round (repeat bets add up to it). */
  max_stake: amount,
})

const base = {
  name: z.string().min(1),
  /** Bets close this long before the draw block (docs/game-rules.md, "Rounds"). */
  seal_ms: z.number().int().min(0),
  limits,
  /** The house edge every bet type of the game is priced at. */
  edge: edgeString,
}

const tronAddress = z.string().refine(isTronAddress, { error: '不是有效的 TRON 地址' })

export const gamesConfigSchema = z.strictObject({
  /** One block every this many ms of the emulator's clock. */
  block_ms: z.number().int().positive(),
  /** Minute games draw on heights divisible by this. */
  draw_every_blocks: z.number().int().positive(),
  games: z.strictObject({
    qukuai: z.strictObject(base),
    hassize: z.strictObject(base),
    kuaisan: z.strictObject({
      ...base,
      /** When true a triple makes big and small lose. */
      triple_voids_big_small: z.boolean(),
    }),
    shishicai: z.strictObject(base),
    saiche: z.strictObject(base),
  }),
  /** Transfer betting (docs/game-rules.md, "Transfer bets"): the game it plays and one receiving address per kind. */
  transfer: z.strictObject({
    game: z.literal('qukuai'),
    addresses: z.strictObject({
      big_small: tronAddress,
      odd_even: tronAddress,
      banker_player: tronAddress,
    }),
  }),
  /** Bet addresses bound at seed time (the wallets players send transfer bets from). */
  bet_addresses: z
    .array(z.strictObject({ phone: z.string(), address: tronAddress, label: z.string() }))
    .default([]),
})

export type GamesConfig = z.infer<typeof gamesConfigSchema>
