import { TOKEN_HEADER } from '@shared/constants'
import type { StreamEvent, StreamEventType } from '@shared/contract/stream'
import { LAST_EVENT_ID_HEADER, streamRoute } from '@shared/contract/stream-route'
import { isSessionLostCode, readLooseEnvelope } from '@shared/envelope-plain'
import { type SseFrame, SseParser } from '@shared/sse'

/**
 * The app's one push channel (docs/realtime.md#the-client): `GET /api/stream` read with fetch, so
 * the `token` header travels as on every call, shared by every page. Open while a player is logged
 * in and the page is visible; after a failure it reconnects with backoff and jitter, sending the id
 * of the last event it saw. Pages ask `healthy` (or `onStatus`) to know whether they may stop
 * polling, and `on(type, …)` for the events they follow.
 */

/**
 * `off`: not wanted (logged out, page hidden). `connecting`: asked, no event yet. `live`: events are
 * arriving. `retrying`: it failed and waits to try again (pages poll meanwhile).
 */
export type LiveStatus = 'off' | 'connecting' | 'live' | 'retrying'

export type EventOf<T extends StreamEventType> = Extract<StreamEvent, { type: T }>['data']

export interface LiveStreamDeps {
  readonly fetch: (url: string, init: RequestInit) => Promise<Response>
  readonly url: () => string
  readonly token: () => string | null
  /** In [0, 1): the jitter of the backoff. */
  readonly random: () => number
  readonly setTimeout: (fn: () => void, ms: number) => unknown
  readonly clearTimeout: (handle: unknown) => void
  readonly isVisible: () => boolean
  /** The server said the session is gone (a `session_end`, or a session-lost answer instead of a stream). */
  readonly onSessionEnd: (message?: string) => void
}

/** The first wait after a failure; it doubles each time up to {@link BACKOFF_MAX_MS}. */
export const BACKOFF_BASE_MS = 1_000
export const BACKOFF_MAX_MS = 30_000
/** A stream that has said nothing (no event, no heartbeat) this long is taken for dead: three heartbeats. */
export const SILENCE_MS = 45_000

/** The wait before attempt `n` (0-based) after a failure: exponential, capped, each a random 50–100 % of it. */
export function backoffMs(attempt: number, random: () => number): number {
  const cap = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.min(attempt, 30))
  return Math.round(cap * (0.5 + 0.5 * random()))
}

type Listener = (data: never) => void

export class LiveStream {
  private state: LiveStatus = 'off'
  private playerEventsOn = true
  private wanted = false
  private lastId: string | null = null
  private attempt = 0
  private controller: AbortController | null = null
  private retryTimer: unknown = null
  private silenceTimer: unknown = null
  private readonly listeners = new Map<string, Set<Listener>>()
  private readonly statusListeners = new Set<(status: LiveStatus) => void>()

  constructor(private readonly deps: LiveStreamDeps) {}

  get status(): LiveStatus {
    return this.state
  }

  /** Events are arriving: pages may leave their polling off. */
  get healthy(): boolean {
    return this.state === 'live'
  }

  /**
   * Whether the server's stream carries the player's own events (settlement, balance, orders,
   * session end), as its last snapshot said. Proxy mode's carries only rounds and draws
   * (docs/realtime.md#proxy-mode): the app then reads the player's data itself after a draw.
   */
  get playerEvents(): boolean {
    return this.playerEventsOn
  }

  /** Healthy, and the player's own events come on it: pages following them may leave their polling off. */
  get playerHealthy(): boolean {
    return this.healthy && this.playerEventsOn
  }

  /** The id of the last event seen (sent as Last-Event-ID on the next connection). */
  get lastEventId(): string | null {
    return this.lastId
  }

  on<T extends StreamEventType>(type: T, listener: (data: EventOf<T>) => void): () => void {
    let set = this.listeners.get(type)
    if (!set) {
      set = new Set()
      this.listeners.set(type, set)
    }
    set.add(listener as Listener)
    return () => set.delete(listener as Listener)
  }

  onStatus(listener: (status: LiveStatus) => void): () => void {
    this.statusListeners.add(listener)
    return () => this.statusListeners.delete(listener)
  }

  /** Whether a player is logged in (the stream is for them). A new player starts from nothing. */
  setWanted(wanted: boolean): void {
    if (!wanted) this.lastId = null
    this.wanted = wanted
    this.update()
  }

  /** The page was shown or hidden: open or close. */
  visibilityChanged(): void {
    this.update()
  }

  /** A frozen tab woke up (`resume`), or the network came back: whatever connection there was may be dead. */
  reconnectNow(): void {
    this.close('off')
    this.attempt = 0
    this.update()
  }

  private update(): void {
    const should = this.wanted && this.deps.isVisible() && this.deps.token() !== null
    if (!should) {
      this.close('off')
      return
    }
    if (this.state === 'off') void this.connect()
  }

  private setStatus(status: LiveStatus): void {
    if (this.state === status) return
    this.state = status
    for (const l of [...this.statusListeners]) l(status)
  }

  private close(status: LiveStatus): void {
    this.deps.clearTimeout(this.retryTimer)
    this.deps.clearTimeout(this.silenceTimer)
    this.retryTimer = null
    this.silenceTimer = null
    const c = this.controller
    this.controller = null
    c?.abort()
    this.setStatus(status)
  }

  private fail(controller: AbortController): void {
    if (this.controller !== controller) return
    this.close('retrying')
    const wait = backoffMs(this.attempt, this.deps.random)
    this.attempt++
    this.retryTimer = this.deps.setTimeout(() => {
      this.retryTimer = null
      if (this.state !== 'retrying') return
      this.setStatus('off')
      this.update()
    }, wait)
  }

  private watchSilence(controller: AbortController): void {
    this.deps.clearTimeout(this.silenceTimer)
    this.silenceTimer = this.deps.setTimeout(() => this.fail(controller), SILENCE_MS)
  }

  private async connect(): Promise<void> {
    const token = this.deps.token()
    if (token === null) return
    const controller = new AbortController()
    this.controller = controller
    this.setStatus('connecting')
    const headers: Record<string, string> = { accept: 'text/event-stream', [TOKEN_HEADER]: token }
    if (this.lastId) headers[LAST_EVENT_ID_HEADER] = this.lastId
    this.watchSilence(controller)
    try {
      const res = await this.deps.fetch(this.deps.url(), {
        method: streamRoute.method,
        headers,
        signal: controller.signal,
        cache: 'no-store',
        credentials: 'same-origin',
      })
      if (this.controller !== controller) return void res.body?.cancel().catch(() => undefined)
      const type = res.headers.get('content-type') ?? ''
      if (!res.ok || !type.includes('text/event-stream') || !res.body) {
        const envelope = readEnvelope(await res.text().catch(() => ''))
        if (this.controller !== controller) return
        if (res.status === 401 || (envelope && isSessionLostCode(envelope.code))) {
          this.close('off')
          this.wanted = false
          this.lastId = null
          this.deps.onSessionEnd(envelope?.msg)
          return
        }
        this.fail(controller)
        return
      }
      const parser = new SseParser({
        onEvent: (frame) => this.receive(frame, controller),
        onComment: () => undefined,
      })
      const reader = res.body.getReader()
      const decoder = new TextDecoder()
      for (;;) {
        const { done, value } = await reader.read()
        if (this.controller !== controller) {
          void reader.cancel().catch(() => undefined)
          return
        }
        if (done) break
        this.watchSilence(controller)
        parser.push(decoder.decode(value, { stream: true }))
      }
      // The server ended the stream (a restart, a drain): try again.
      this.fail(controller)
    } catch {
      this.fail(controller)
    }
  }

  private receive(frame: SseFrame, controller: AbortController): void {
    if (this.controller !== controller) return
    if (frame.id) this.lastId = frame.id
    let data: unknown
    try {
      data = JSON.parse(frame.data)
    } catch {
      return
    }
    // Known before anyone hears the stream is live: what it carries decides who still polls.
    if (frame.event === 'snapshot')
      this.playerEventsOn = (data as { player_events?: unknown })?.player_events !== false
    if (this.state !== 'live') {
      this.attempt = 0
      this.setStatus('live')
    }
    if (frame.event === 'session_end') {
      this.close('off')
      this.wanted = false
      this.lastId = null
      this.deps.onSessionEnd()
      return
    }
    const set = this.listeners.get(frame.event)
    if (!set) return
    for (const l of [...set]) {
      try {
        l(data as never)
      } catch (err) {
        console.error(`stream listener for ${frame.event} failed`, err)
      }
    }
  }
}

function readEnvelope(text: string) {
  try {
    return readLooseEnvelope(JSON.parse(text))
  } catch {
    return null
  }
}
