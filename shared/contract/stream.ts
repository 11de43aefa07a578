import { z } from 'zod'
import { gameCodeSchema } from '../games/config'
import { announcementSchema } from './account'
import { moneyString, timestamp } from './fields'
import { currentRound, drawResultSchema } from './games'
import { LAST_EVENT_ID_HEADER, streamRoute } from './stream-route'
import { currencySchema, depositStatusSchema, fundFlowTypeSchema, withdrawalStatusSchema } from './wallet'

/**
 * The push channel (docs/realtime.md): one Server-Sent Events stream per app, authenticated by the
 * `token` header like every other call. Not an envelope endpoint: a live session gets
 * `text/event-stream`; without one the answer is the session-lost envelope.
 */

/** A stream endpoint: like an `Endpoint`, but its answer is a stream of the events below. */
export interface StreamEndpoint {
  readonly id: string
  readonly method: 'GET'
  readonly path: `/api/${string}`
  readonly summary: string
  readonly tag: string
  readonly source: 'ours'
  readonly auth: true
  readonly kind: 'sse'
}

export const stream = {
  id: 'stream',
  ...streamRoute,
  summary: 'Server-Sent Events: rounds and draws, the player’s settlements, balance, orders and session',
  tag: 'stream',
  source: 'ours',
  kind: 'sse',
} as const satisfies StreamEndpoint

export { LAST_EVENT_ID_HEADER }

/** A game's current round, as `GET /api/games/round` answers it: sent when it is sealed and when a new one opens. */
export const roundEventSchema = currentRound.data

/** A round was drawn (before `round` announces the next one). */
export const drawEventSchema = drawResultSchema

/** The player's bets in a drawn round were settled. */
export const settlementEventSchema = z.object({
  game: gameCodeSchema,
  round_id: z.string(),
  bet_count: z.number().int(),
  stake: moneyString,
  /** Credited for winning bets (stake × odds). */
  payout: moneyString,
  /** Stakes returned for bets that ended in a draw. */
  refund: moneyString,
  /** How many of the bets won. */
  won: z.number().int(),
})

/** The player's balance moved (one ledger row). */
export const balanceEventSchema = z.object({
  currency: currencySchema,
  /** The balance after the change. */
  balance: moneyString,
  /** Signed change. */
  change: z.string(),
  type: fundFlowTypeSchema,
  at: timestamp,
})

export const depositEventSchema = z.object({
  id: z.number().int(),
  order_no: z.string(),
  status: depositStatusSchema,
  amount: moneyString,
})

export const withdrawalEventSchema = z.object({
  id: z.number().int(),
  order_no: z.string(),
  status: withdrawalStatusSchema,
  amount: moneyString,
})

/** The session this stream was opened with has ended: the app goes to the login page. */
export const sessionEndEventSchema = z.object({ reason: z.enum(['revoked', 'expired']) })

/** An announcement was published. */
export const announcementEventSchema = announcementSchema

/**
 * Sent first on every connection: the client's copy may be stale, refresh it. `new`: a connection
 * without Last-Event-ID; `gap`: the events since that id are no longer kept (or it is from an
 * earlier run of the server). A reconnection whose missed events are kept gets them instead.
 */
export const snapshotEventSchema = z.object({
  reason: z.enum(['new', 'gap']),
  server_time: timestamp,
  /**
   * Whether the stream carries the player's own events (settlement, balance, deposit, withdrawal,
   * session_end). False in proxy mode: only rounds and draws come, and the app reads the player's
   * data itself after a draw of a game with bets pending (docs/realtime.md#proxy-mode). Absent: true.
   */
  player_events: z.boolean().optional(),
})

export const STREAM_EVENTS = {
  round: roundEventSchema,
  draw: drawEventSchema,
  settlement: settlementEventSchema,
  balance: balanceEventSchema,
  deposit: depositEventSchema,
  withdrawal: withdrawalEventSchema,
  session_end: sessionEndEventSchema,
  announcement: announcementEventSchema,
  snapshot: snapshotEventSchema,
} as const

export type StreamEventType = keyof typeof STREAM_EVENTS
export type StreamEventData<T extends StreamEventType> = z.infer<(typeof STREAM_EVENTS)[T]>
export type StreamEvent = { [T in StreamEventType]: { type: T; data: StreamEventData<T> } }[StreamEventType]

/** Every stream endpoint (the routes test ties each to its route, as it does `ENDPOINTS`). */
export const STREAM_ENDPOINTS: readonly StreamEndpoint[] = [stream]
