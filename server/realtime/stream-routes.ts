import sse from '@fastify/sse'
import { LAST_EVENT_ID_HEADER, type StreamEvent, stream } from '@shared/contract/stream'
import type { FastifyPluginAsync, FastifyRequest } from 'fastify'
import type { Metrics } from '../ops/metrics'
import { type EventHub, type HubEvent, isFor } from './event-hub'
import type { OutgoingEvent, StreamFaultHook, StreamTap, StreamTimers } from './stream-tap'

/** What became of the session a stream was opened with. */
export type SessionState = 'live' | 'revoked' | 'expired'

export type { StreamTimers } from './stream-tap'

const realTimers: StreamTimers = {
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms)
    t.unref()
    return t
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
}

/** A stream whose client reads slower than this many bytes behind is closed (it reconnects and catches up). */
export const MAX_BUFFERED_BYTES = 1024 * 1024

export interface StreamRouteOptions {
  readonly hub: EventHub
  /**
   * The session check every call has: sets `request.player` or throws the session-lost answer. Proxy
   * mode's asks the upstream, once per connection (docs/realtime.md#proxy-mode).
   */
  readonly authenticate: (request: FastifyRequest) => void | Promise<void>
  /** Whether the session a stream was opened with still holds, asked at each heartbeat and session event. */
  readonly sessionState: (request: FastifyRequest) => SessionState
  /** The server time the snapshot event carries. */
  readonly now: () => number
  readonly heartbeatMs: number
  /** Called with a function that checks every open stream's session again (a move of the clock). */
  readonly onRecheck?: (recheck: () => void) => void
  readonly timers?: StreamTimers
  /** Where streams opened, events sent and slow readers closed are counted (null: not kept). */
  readonly metrics?: Metrics | null
  /** The tester's stream faults and the journal's record of each event (server/fault/stream-faults.ts). */
  readonly faults?: StreamFaultHook
  /**
   * Whether the hub carries the player's own events (settlement, balance, orders, session end); the
   * snapshot says so (`player_events`). False in proxy mode, where the upstream offers none.
   */
  readonly playerEvents?: boolean
  /** Told how many streams are open in this process whenever one opens or closes. */
  readonly onStreams?: (open: number) => void
}

interface OpenStream {
  recheck(): void
  close(): void
}

/**
 * `GET /api/stream` (shared/contract/stream.ts, docs/realtime.md): the push channel. The session
 * is checked like any call's (`token` header); then the answer is an event stream: first the events
 * missed since `Last-Event-ID` when they are all still kept, else a `snapshot`; then every event
 * for everybody and for this player as it is published, each with its id; a comment line every
 * `heartbeatMs` when no event went out since the last. A `session_end` closes it.
 */
export const streamRoutes: FastifyPluginAsync<StreamRouteOptions> = async (app, opts) => {
  const timers = opts.timers ?? realTimers
  const open = new Set<OpenStream>()
  const metrics = opts.metrics ?? null
  metrics?.gauge('stream_connections', 'Push channel streams open in this process', () => open.size)
  // The counter of each event type, looked up once rather than at each of thousands of sends.
  const sentByType = new Map<string, { inc(): void }>()
  const sentOfType = (type: string) => {
    if (!metrics) return null
    let counter = sentByType.get(type)
    if (!counter) {
      counter = metrics.streamEvents.labels({ type })
      sentByType.set(type, counter)
    }
    return counter
  }
  await app.register(sse, { heartbeatInterval: 0 })
  opts.onRecheck?.(() => {
    for (const s of open) s.recheck()
  })
  // Open streams would hold a graceful shutdown's drain open for ever: they end first.
  app.addHook('preClose', async () => {
    for (const s of [...open]) s.close()
  })

  app.get(
    stream.path,
    {
      sse: { kind: 'only', heartbeat: false },
      preHandler: async (request) => {
        await opts.authenticate(request)
      },
    },
    async (request, reply) => {
      const player = request.player
      if (!player) return
      reply.sse.keepAlive()
      reply.sse.sendHeaders()
      let ended = false
      let heartbeat: unknown = null
      let unsubscribe = () => {}

      let tap: StreamTap | null = null

      /**
       * Frames sent in this turn of the event loop, written together once it is over: the events
       * published at one instant (the minute games drawing with the block game) reach the socket in
       * one write rather than one each.
       */
      let pending = ''
      /** An event went out since the last heartbeat's turn: that turn writes none (see beat). */
      let wrote = false
      const flush = () => {
        if (pending === '') return
        const text = pending
        pending = ''
        wrote = true
        // Written as is: the buffer's bound (MAX_BUFFERED_BYTES) stands in for waiting on each write.
        if (reply.raw.writable) reply.raw.write(text)
      }
      const send = (e: OutgoingEvent) => {
        if (ended) return
        if (!reply.raw.writable) return close()
        sentOfType(e.event.type)?.inc()
        if (pending === '') queueMicrotask(flush)
        pending += frameOf(e)
      }
      const write = (e: { id: string; event: StreamEvent }) => {
        if (ended) return
        if (reply.raw.writableLength > MAX_BUFFERED_BYTES) {
          metrics?.streamSlowClosed.inc()
          close()
          return
        }
        if (tap) tap.send(e)
        else send(e)
      }
      const endSession = (): boolean => {
        const state = opts.sessionState(request)
        if (state === 'live') return false
        write({ id: opts.hub.lastId(), event: { type: 'session_end', data: { reason: state } } })
        close()
        return true
      }
      const deliver = (e: HubEvent) => {
        if (!isFor(e, player.id)) return
        // Another of the player's sessions may have ended: this one closes only when it is its own.
        if (e.type === 'session_end') {
          endSession()
          return
        }
        write({ id: e.id, event: e })
      }
      const beat = () => {
        heartbeat = null
        if (ended || endSession()) return
        if (reply.raw.writableLength > MAX_BUFFERED_BYTES) {
          metrics?.streamSlowClosed.inc()
          return close()
        }
        flush()
        // A stream that carried an event since the last turn is not idle: the comment would only
        // add a write per stream (thousands at once, since streams open together). The longest
        // silence is thus under two heartbeats, well within the client's three.
        if (wrote) wrote = false
        else reply.raw.write(': heartbeat\n\n')
        heartbeat = timers.setTimeout(beat, opts.heartbeatMs)
      }
      const me: OpenStream = { recheck: () => void endSession(), close: () => close() }
      /** `drop`: cut off after what was written, without the end of the body (a network failure). */
      function close(drop = false): void {
        if (ended) return
        // What was sent before the end goes out first.
        flush()
        ended = true
        if (open.delete(me)) opts.onStreams?.(open.size)
        unsubscribe()
        if (heartbeat !== null) timers.clearTimeout(heartbeat)
        tap?.closed()
        const socket = reply.raw.socket
        if (drop && socket) {
          // The head first (a drop before any event): the client sees a stream cut off, not no answer.
          reply.raw.flushHeaders()
          socket.end(() => socket.destroy())
        } else reply.sse.close()
      }

      const lastId = headerOf(request, LAST_EVENT_ID_HEADER)
      tap =
        opts.faults?.(request, {
          send,
          drop: () => close(true),
          end: () => close(),
          lastId: () => opts.hub.lastId(),
          timers,
        }) ?? null
      // Replay and subscription in one synchronous turn: nothing published can fall between them.
      const missed = lastId && !tap?.gap ? opts.hub.since(lastId) : null
      metrics?.streamStarts.inc({
        start: missed !== null ? 'replay' : lastId ? 'snapshot_gap' : 'snapshot_new',
      })
      if (missed === null)
        write({
          id: opts.hub.lastId(),
          event: {
            type: 'snapshot',
            data: {
              reason: lastId ? 'gap' : 'new',
              server_time: opts.now(),
              player_events: opts.playerEvents ?? true,
            },
          },
        })
      else for (const e of missed) if (e.type !== 'session_end') deliver(e)
      if (ended) return
      unsubscribe = opts.hub.subscribe(deliver)
      open.add(me)
      opts.onStreams?.(open.size)
      reply.sse.onClose(() => close())
      heartbeat = timers.setTimeout(beat, opts.heartbeatMs)
    },
  )
}

/** Each event's text on the wire, made once however many streams it goes to (an event's id and data hold no line break). */
const frames = new WeakMap<object, { id: string; text: string }>()

function frameOf(e: OutgoingEvent): string {
  const known = frames.get(e.event)
  if (known && known.id === e.id) return known.text
  const text = `id: ${e.id}\nevent: ${e.event.type}\ndata: ${JSON.stringify(e.event.data)}\n\n`
  frames.set(e.event, { id: e.id, text })
  return text
}

function headerOf(request: FastifyRequest, name: string): string | null {
  const v = request.headers[name]
  const text = Array.isArray(v) ? v[0] : v
  return text && text.length <= 64 ? text : null
}
