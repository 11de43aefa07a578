import { z } from 'zod'
import { isTronAddress } from '../tron'

/**
 * The games' data (fixtures/games.json): odds, limits, sealing and timing. Shared code takes this
 * as data; nothing here holds a number of its own.
 */

export const GAME_CODES = ['qukuai', 'hassize', 'kuaisan', 'shishicai', 'saiche'] as const
export type GameCode = (typeof GAME_CODES)[number]
export const gameCodeSchema = z.enum(GAME_CODES)

/** A decimal payout with at most 3 places ("1.95", "31.5", "1.982"), kept as integer thousandths. */
export const oddsString = z.string().regex(/^\d{1,4}(\.\d{1,3})?$/, { error: '赔率格式不正确' })

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

const amount = z.string().regex(/^\d+(\.\d{1,6})?$/)

const limits = z.strictObject({
  /** Smallest stake of one bet. */
  min_stake: amount,
  /** Largest stake one player may hold on one bet type in one round (repeat bets add up to it). */
  max_stake: amount,
})

const base = {
  name: z.string().min(1),
  /** Bets close this long before the draw block (game-rules §2). */
  seal_ms: z.number().int().min(0),
  limits,
}

const sums = z.strictObject(
  Object.fromEntries(Array.from({ length: 16 }, (_, i) => [String(i + 3), oddsString])) as Record<
    string,
    typeof oddsString
  >,
)

const odds = <K extends string>(keys: readonly K[]) =>
  z.strictObject(Object.fromEntries(keys.map((k) => [k, oddsString])) as Record<K, typeof oddsString>)

export const QUKUAI_ODDS = [
  'big',
  'small',
  'odd',
  'even',
  'lucky',
  'unlucky',
  'banker',
  'player',
  'tie',
] as const
export const HASSIZE_ODDS = [
  'big',
  'small',
  'odd',
  'even',
  'sum_big',
  'sum_small',
  'sum_odd',
  'sum_even',
] as const
export const KUAISAN_ODDS = [
  'big',
  'small',
  'odd',
  'even',
  'any_triple',
  'triple',
  'any_straight',
  'pair',
  'two',
] as const
export const SHISHICAI_ODDS = [
  'ball_big',
  'ball_small',
  'ball_odd',
  'ball_even',
  'ball_digit',
  'sum_big',
  'sum_small',
  'sum_odd',
  'sum_even',
  'dragon',
  'tiger',
  'tie',
] as const
export const SAICHE_ODDS = [
  'pos_big',
  'pos_small',
  'pos_odd',
  'pos_even',
  'pos_car',
  'dragon',
  'tiger',
  'top2_big',
  'top2_small',
  'top2_odd',
  'top2_even',
] as const

const tronAddress = z.string().refine(isTronAddress, { error: '不是有效的 TRON 地址' })

export const gamesConfigSchema = z.strictObject({
  /** One block every this many ms of the emulator's clock. */
  block_ms: z.number().int().positive(),
  /** Minute games draw on heights divisible by this. */
  draw_every_blocks: z.number().int().positive(),
  /** The "local" time of lottery issue numbers, in minutes east of UTC (480 = UTC+8). */
  utc_offset_minutes: z.number().int().min(-720).max(840),
  games: z.strictObject({
    qukuai: z.strictObject({ ...base, odds: odds(QUKUAI_ODDS) }),
    hassize: z.strictObject({ ...base, odds: odds(HASSIZE_ODDS) }),
    kuaisan: z.strictObject({
      ...base,
      odds: odds(KUAISAN_ODDS).extend({ sum: sums }),
      /** When true a triple makes big and small lose. */
      triple_voids_big_small: z.boolean(),
    }),
    shishicai: z.strictObject({ ...base, odds: odds(SHISHICAI_ODDS) }),
    saiche: z.strictObject({ ...base, odds: odds(SAICHE_ODDS) }),
  }),
  /** Transfer betting (game-rules §7): the game it plays and one receiving address per kind. */
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
