import type { StreamEvent, StreamEventType } from '@shared/contract/stream'

/**
 * Who an event is for: everybody (game rounds and draws, announcements) or one player (settlements,
 * balance, orders, session end).
 */
export type Audience = { readonly to: 'all' } | { readonly to: 'player'; readonly playerId: number }

export const EVERYONE: Audience = { to: 'all' }
export const player = (playerId: number): Audience => ({ to: 'player', playerId })

/** An event as the hub keeps it: its id and audience besides what goes on the wire. */
export type HubEvent = StreamEvent & { readonly id: string; readonly audience: Audience }

export type HubListener = (event: HubEvent) => void

/**
 * Where the push channel's events meet: the emulator's domains publish, every open stream
 * subscribes. Ids increase within one hub; a reconnecting client asks `since` for what it missed.
 * The in-memory hub serves one process; the Redis hub (`server/scale/redis-hub.ts`) serves every
 * process of a deployment behind this interface.
 */
export interface EventHub {
  /**
   * Sends an event to every listener. It does not wait and does not throw for the transport: the
   * in-memory hub calls listeners at once; the Redis hub calls them when the event comes back from
   * Redis (it is numbered there).
   */
  publish(event: StreamEvent, audience: Audience): void
  subscribe(listener: HubListener): () => void
  /**
   * The events after `lastId`, oldest first, or null when they cannot all be given: the id is not
   * one of this hub's (another run of the server) or events after it were dropped from the log.
   */
  since(lastId: string): HubEvent[] | null
  /** The id of the newest event, or the hub's starting id when there is none. */
  lastId(): string
}

/** Whether an event goes to a stream of this player. */
export function isFor(event: HubEvent, playerId: number): boolean {
  return event.audience.to === 'all' || event.audience.playerId === playerId
}

/**
 * One process's hub: listeners called synchronously, and the last `replaySize` events kept in a
 * ring for replay. Ids are `<run>-<seq>`: the run (this hub's start, base 36) tells an id from an
 * earlier run of the server, whose events this hub never had.
 */
export class MemoryEventHub implements EventHub {
  private readonly ring: (HubEvent | undefined)[]
  private seq = 0
  private readonly listeners = new Set<HubListener>()
  private readonly run: string

  constructor(
    private readonly replaySize: number,
    startedAt: number = Date.now(),
    private readonly onListenerError: (err: unknown) => void = () => undefined,
  ) {
    if (!Number.isInteger(replaySize) || replaySize < 1) throw new RangeError('replay size must be ≥ 1')
    this.ring = new Array(replaySize)
    this.run = startedAt.toString(36)
  }

  publish(event: StreamEvent, audience: Audience): HubEvent {
    this.seq++
    const out = { ...event, id: `${this.run}-${this.seq}`, audience } as HubEvent
    this.ring[this.seq % this.replaySize] = out
    for (const listener of this.listeners) {
      try {
        listener(out)
      } catch (err) {
        this.onListenerError(err)
      }
    }
    return out
  }

  subscribe(listener: HubListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  since(lastId: string): HubEvent[] | null {
    const seq = this.seqOf(lastId)
    if (seq === null || seq > this.seq) return null
    const oldestKept = Math.max(1, this.seq - this.replaySize + 1)
    if (seq + 1 < oldestKept) return null
    const out: HubEvent[] = []
    for (let s = seq + 1; s <= this.seq; s++) {
      const e = this.ring[s % this.replaySize]
      if (e) out.push(e)
    }
    return out
  }

  lastId(): string {
    return `${this.run}-${this.seq}`
  }

  /** How many listeners are subscribed (open streams, for tests and metrics). */
  get listenerCount(): number {
    return this.listeners.size
  }

  private seqOf(id: string): number | null {
    const dash = id.lastIndexOf('-')
    if (dash < 0 || id.slice(0, dash) !== this.run) return null
    const text = id.slice(dash + 1)
    if (!/^\d{1,15}$/.test(text)) return null
    return Number(text)
  }
}

/** The publishing side the domains are handed: an event and who it is for. */
export type Publish = <T extends StreamEventType>(
  type: T,
  data: Extract<StreamEvent, { type: T }>['data'],
  audience: Audience,
) => void

/** Publishes nothing (the domains' default when built without a hub, as seeding and some tests do). */
export const publishNothing: Publish = () => undefined
