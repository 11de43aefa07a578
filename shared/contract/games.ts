import { z } from 'zod'
import { GAME_CODES, gameCodeSchema } from '../games/config'
import { TRANSFER_KINDS } from '../games/transfer'
import { defineEndpoint } from './endpoint'
import {
  amountField,
  dateParam,
  idParam,
  moneyString,
  noteField,
  paged,
  pageParams,
  timestamp,
} from './fields'
import { tronAddressField } from './wallet'

/**
 * The games (docs/game-rules.md): list, current round, results, placing bets, bet history, rules with
 * odds and house edge, verification against the committed chain, bet addresses and transfer bets.
 * The upstream documents only the four bet-address paths (docs/product.md#calls); everything else is ours. Round ids are the block
 * height for hash games (qukuai, hassize) and the issue number YYYYMMDDNNNN for lottery games.
 */

export { GAME_CODES, gameCodeSchema }

export const ROUND_STATES = ['OPEN', 'SEALED', 'DRAWN'] as const
export const BET_STATUSES = ['pending', 'won', 'lost', 'draw'] as const
export const betStatusSchema = z.enum(BET_STATUSES)
export const BET_STATUS_LABEL: Record<(typeof BET_STATUSES)[number], string> = {
  pending: '待开奖',
  won: '已中奖',
  lost: '未中奖',
  draw: '和局退款',
}

const roundIdField = z.string().regex(/^\d{1,15}$/, { error: '期号格式不正确' })

/** One game as the lobby lists it. */
export const gameSummarySchema = z.object({
  game: gameCodeSchema,
  name: z.string(),
  /** The client route. */
  path: z.string(),
  kind: z.enum(['hash', 'lottery']),
  /** Time between draws. */
  round_ms: z.number().int(),
  /** Bets close this long before the draw. */
  seal_ms: z.number().int(),
  min_stake: moneyString,
  max_stake: moneyString,
})

/** A drawn round: the block hash and what it decided. */
export const drawResultSchema = z.object({
  game: gameCodeSchema,
  round_id: z.string(),
  height: z.number().int(),
  block_hash: z.string(),
  draw_at: timestamp,
  /**
   * qukuai: [hash digit, banker point, player point]; hassize: [hash digit, height's last digit,
   * sum mod 10]; kuaisan: the 3 dice; shishicai: the 5 balls 万千百十个; saiche: car in positions 1–10.
   */
  numbers: z.array(z.number().int()),
  /**
   * What the trend view plots, e.g. { big_small: 'big', odd_even: 'odd', lucky: 'lucky',
   * banker_player: 'tie' } for qukuai; sum_big_small, sum_odd_even, dragon_tiger for shishicai;
   * top2_big_small, top2_odd_even, dragon_tiger_1…5 for saiche.
   */
  labels: z.record(z.string(), z.string()),
})

export const roundSchema = z.object({
  game: gameCodeSchema,
  round_id: z.string(),
  height: z.number().int(),
  seal_at: timestamp,
  draw_at: timestamp,
})

export const listGames = defineEndpoint({
  id: 'listGames',
  method: 'GET',
  path: '/api/games/list',
  summary: 'The games with their timing and stake limits',
  tag: 'games',
  source: 'ours',
  fields: 'ours',
  auth: false,
  data: z.object({ list: z.array(gameSummarySchema) }),
})

export const currentRound = defineEndpoint({
  id: 'currentRound',
  method: 'GET',
  path: '/api/games/round',
  summary: "A game's current round: its number, the server time, time to sealing and to the draw, its state",
  tag: 'games',
  source: 'ours',
  fields: 'ours',
  auth: false,
  query: z.strictObject({ game: gameCodeSchema }),
  data: roundSchema.extend({
    server_time: timestamp,
    /** Milliseconds until bets close (0 once sealed). */
    ms_to_seal: z.number().int(),
    ms_to_draw: z.number().int(),
    /** OPEN or SEALED (the current round is never drawn yet). */
    state: z.enum(ROUND_STATES),
    /** The round after this one: where bets go once this one is sealed. */
    next: roundSchema,
    /** The latest drawn round, or null before the first. */
    previous: drawResultSchema.nullable(),
  }),
})

export const gameResults = defineEndpoint({
  id: 'gameResults',
  method: 'GET',
  path: '/api/games/results',
  summary: 'Recent results of a game, newest first, with the block hash and what it decided',
  tag: 'games',
  source: 'ours',
  fields: 'ours',
  auth: false,
  query: z.strictObject({ game: gameCodeSchema, ...pageParams }),
  data: paged(drawResultSchema),
})

export const betItemSchema = z.object({
  id: z.number().int(),
  game: gameCodeSchema,
  game_name: z.string(),
  round_id: z.string(),
  /** The block that decides the bet (for the verify page). */
  height: z.number().int(),
  bet_type: z.string(),
  /** The bet in words, e.g. "万位 大", "和值 8". */
  label: z.string(),
  stake: moneyString,
  odds: z.string(),
  status: betStatusSchema,
  /** What the bet credited: stake × odds on a win, the stake on a draw, 0 otherwise. */
  payout: moneyString,
  source: z.enum(['app', 'transfer']),
  placed_at: timestamp,
  draw_at: timestamp,
  settled_at: timestamp.nullable(),
})

export const placeBets = defineEndpoint({
  id: 'placeBets',
  method: 'POST',
  path: '/api/games/bet',
  summary:
    'Place bets on the current round (or one of the next two) while it is open. Refused when sealed or drawn, outside the stake limits, or on both sides of a pair; the same side again adds to the bet.',
  tag: 'games',
  source: 'ours',
  fields: 'ours',
  auth: true,
  encoding: 'json',
  idempotent: true,
  body: z.strictObject({
    game: gameCodeSchema,
    round_id: roundIdField,
    bets: z
      .array(z.strictObject({ bet_type: z.string().min(1).max(32), amount: amountField }))
      .min(1, { error: '请选择投注项' })
      .max(50, { error: '一次最多投注50项' }),
  }),
  data: z.object({
    round_id: z.string(),
    /** The bets as they stand after this call (a repeat on the same side shows the added total). */
    bets: z.array(betItemSchema),
    balance: moneyString,
  }),
})

export const betHistory = defineEndpoint({
  id: 'betHistory',
  method: 'GET',
  path: '/api/games/bets',
  summary: "The player's bets, newest first; filter by game, status and local date (placed)",
  tag: 'games',
  source: 'ours',
  fields: 'ours',
  auth: true,
  query: z.strictObject({
    game: gameCodeSchema.optional(),
    status: betStatusSchema.optional(),
    date_from: dateParam.optional(),
    date_to: dateParam.optional(),
    ...pageParams,
  }),
  data: paged(
    betItemSchema.extend({
      /** What the bet's round drew; null while it is pending. */
      result: drawResultSchema.nullable(),
    }),
  ).extend({
    /** Sums over every bet the filters match (not only this page). */
    summary: z.object({ stake: moneyString, payout: moneyString }),
  }),
})

export const gameRules = defineEndpoint({
  id: 'gameRules',
  method: 'GET',
  path: '/api/games/rules',
  summary: "A game's bet types with odds, win probability and house edge",
  tag: 'games',
  source: 'ours',
  fields: 'ours',
  auth: false,
  query: z.strictObject({ game: gameCodeSchema }),
  data: gameSummarySchema.extend({
    bet_types: z.array(
      z.object({
        bet_type: z.string(),
        label: z.string(),
        group: z.string(),
        odds: z.string(),
        /** Chance the bet wins, 0–1. */
        win_probability: z.number(),
        /** Chance the stake is refunded (banker/player on a tie), 0–1. */
        refund_probability: z.number(),
        /** 1 − expected return per unit staked; negative favours the player. */
        house_edge: z.number(),
      }),
    ),
  }),
})

export const commitmentSchema = z.object({
  /** c(N): published before any round. */
  terminal_hash: z.string(),
  chain_length: z.number().int(),
  /** Block number k is height start_height + k and uses key c(N − k). */
  start_height: z.number().int(),
  block_ms: z.number().int(),
  created_at: timestamp,
})

export const gameCommitment = defineEndpoint({
  id: 'gameCommitment',
  method: 'GET',
  path: '/api/games/commitment',
  summary: "The chain's terminal hash, committed before any round",
  tag: 'games',
  source: 'ours',
  fields: 'ours',
  auth: false,
  data: commitmentSchema,
})

export const verifyRound = defineEndpoint({
  id: 'verifyRound',
  method: 'GET',
  path: '/api/games/verify',
  summary: 'The revealed key of a drawn round and its proof to the committed terminal hash',
  tag: 'games',
  source: 'ours',
  fields: 'ours',
  auth: false,
  query: z.strictObject({ game: gameCodeSchema, round_id: roundIdField }),
  data: z.object({
    result: drawResultSchema,
    commitment: commitmentSchema,
    /** Block number k = height − start_height. */
    block_number: z.number().int(),
    /** c(N − k): HMAC key of the block hash; hashing it k times gives the terminal hash. */
    key: z.string(),
    /** The HMAC message of the block hash: the height in decimal. */
    hmac_message: z.string(),
    /** Lottery games: the HMAC messages (keyed by the block hash) of each byte round; empty for hash games. */
    lottery_messages: z.array(z.string()),
    /**
     * Keys of earlier blocks, each already revealed: sha256 applied (block_number − anchor's
     * block_number) times to `key` must give it. Closest first; the last is block 1, one hash from the terminal.
     */
    anchors: z.array(z.object({ block_number: z.number().int(), height: z.number().int(), key: z.string() })),
  }),
})

export const betAddressSchema = z.object({
  id: z.number().int(),
  address: z.string(),
  label: z.string(),
  created_at: timestamp,
  updated_at: timestamp,
})

export const receivingAddressSchema = z.object({
  game: gameCodeSchema,
  kind: z.enum(TRANSFER_KINDS),
  address: z.string(),
  /** How the units digit of the amount picks the side, in words. */
  rule: z.string(),
})

const labelField = noteField({ max: 20, tooLong: '备注不能超过20个字符' })

export const betAddresses = defineEndpoint({
  id: 'betAddresses',
  method: 'GET',
  path: '/api/api2/bet/betaddress',
  summary: "The player's bound bet addresses and the games' receiving addresses",
  tag: 'games',
  source: 'spec',
  fields: 'ours',
  auth: true,
  data: z.object({ list: z.array(betAddressSchema), receiving: z.array(receivingAddressSchema) }),
})

export const bindBetAddress = defineEndpoint({
  id: 'bindBetAddress',
  method: 'POST',
  path: '/api/api2/bet/bind',
  summary: 'Bind a wallet address transfer bets are sent from',
  tag: 'games',
  source: 'spec',
  fields: 'ours',
  auth: true,
  encoding: 'urlencoded',
  body: z.strictObject({ address: tronAddressField, label: labelField.optional() }),
  data: betAddressSchema,
})

export const updateBetAddress = defineEndpoint({
  id: 'updateBetAddress',
  method: 'POST',
  path: '/api/api2/bet/update',
  summary: 'Change a bound bet address or its label',
  tag: 'games',
  source: 'spec',
  fields: 'ours',
  auth: true,
  encoding: 'urlencoded',
  body: z.strictObject({ id: idParam, address: tronAddressField.optional(), label: labelField.optional() }),
  data: betAddressSchema,
})

export const deleteBetAddress = defineEndpoint({
  id: 'deleteBetAddress',
  method: 'POST',
  path: '/api/delete_bet_address',
  summary: 'Remove a bound bet address',
  tag: 'games',
  source: 'spec',
  fields: 'ours',
  auth: true,
  encoding: 'urlencoded',
  body: z.strictObject({ id: idParam }),
  data: z.null(),
})

export const transferSchema = z.object({
  id: z.number().int(),
  from_address: z.string(),
  to_address: z.string(),
  kind: z.enum(TRANSFER_KINDS),
  amount: moneyString,
  /** bet: placed as a bet; refunded: invalid amount (or refused), credited back. */
  status: z.enum(['bet', 'refunded']),
  reason: z.string().nullable(),
  /** The block that holds the transfer and decides the bet. */
  height: z.number().int(),
  created_at: timestamp,
  bet: betItemSchema.nullable(),
})

export const transferBetBody = z.strictObject({
  from_address: tronAddressField,
  to_address: tronAddressField,
  amount: amountField,
})

export const sendTransferBet = defineEndpoint({
  id: 'sendTransferBet',
  method: 'POST',
  path: '/api/games/transfer',
  summary:
    'Simulate sending USDT from a bound bet address to a receiving address: the units digit picks the side; invalid amounts are refunded',
  tag: 'games',
  source: 'ours',
  fields: 'ours',
  auth: true,
  encoding: 'urlencoded',
  idempotent: true,
  body: transferBetBody,
  data: transferSchema,
})

export const transferHistory = defineEndpoint({
  id: 'transferHistory',
  method: 'GET',
  path: '/api/games/transfers',
  summary: "The player's transfer bets, newest first, each with its bet",
  tag: 'games',
  source: 'ours',
  fields: 'ours',
  auth: true,
  query: z.strictObject({ ...pageParams }),
  data: paged(transferSchema),
})

export const GAME_ENDPOINTS = [
  listGames,
  currentRound,
  gameResults,
  placeBets,
  betHistory,
  gameRules,
  gameCommitment,
  verifyRound,
  betAddresses,
  bindBetAddress,
  updateBetAddress,
  deleteBetAddress,
  sendTransferBet,
  transferHistory,
] as const
