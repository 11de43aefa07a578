import type { StreamEvent } from '@shared/contract/stream'
import type { FastifyRequest } from 'fastify'

/**
 * How the stream route (./stream-routes.ts) lets a hook stand between it and the socket: the
 * tester's stream faults and the journal's record of each event (server/fault/stream-faults.ts),
 * in whichever mode serves the stream.
 */

/** The stream's own timers (heartbeats, and the faults' delays); tests hand in their own. */
export interface StreamTimers {
  setTimeout(fn: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

/** One event as a stream sends it. */
export interface OutgoingEvent {
  readonly id: string
  readonly event: StreamEvent
}

/** What a stream hands its fault hook: its own ways to send an event and to end. */
export interface StreamOutlet {
  send(e: OutgoingEvent): void
  /** Ends the connection mid-stream, as a network failure would (no end of the body). */
  drop(): void
  /** Ends the stream as the server does after a `session_end`. */
  end(): void
  /** The newest event's id (what a `session_end` of the stream's own carries). */
  lastId(): string
  readonly timers: StreamTimers
}

/** A fault hook's hold on one stream: every event the stream would send goes through `send`. */
export interface StreamTap {
  /** Answer a `snapshot` (reason `gap`) instead of the replay the `Last-Event-ID` asks for. */
  readonly gap: boolean
  send(e: OutgoingEvent): void
  /** The stream has ended, however it did. */
  closed(): void
}

/** Asked once per stream, as it opens; null leaves the stream alone. */
export type StreamFaultHook = (request: FastifyRequest, outlet: StreamOutlet) => StreamTap | null
