import type { StreamEvent } from '@shared/contract/stream'
import type { Redis } from 'ioredis'
import {
  type Audience,
  EVERYONE,
  type EventHub,
  type HubEvent,
  type HubListener,
} from '../realtime/event-hub'

/**
 * Appends events to the log and tells every process, in one atomic step, so the order processes
 * hear events in is the order of their ids. Each entry carries the id before it (`p`): a process
 * that missed a message sees the break in the chain and reads what it missed from the log. The
 * events of one call travel in one message (entries joined by {@link ENTRY_SEPARATOR}), so each
 * process hears them at once and its streams write them together.
 * KEYS[1] the log (a stream); ARGV: the log's length (approximate trim), the channel, the events.
 */
const PUBLISH_SCRIPT = `
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local prev = '0-0'
if last[1] then prev = last[1][1] end
local out = {}
for i = 3, #ARGV do
  local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 'p', prev, 'e', ARGV[i])
  out[#out + 1] = id .. '\\n' .. prev .. '\\n' .. ARGV[i]
  prev = id
end
redis.call('PUBLISH', ARGV[2], table.concat(out, '\\30'))
return prev
`

/** Between the entries of one message: the record separator, which JSON text never holds unescaped. */
const ENTRY_SEPARATOR = '\x1e'

declare module 'ioredis' {
  interface RedisCommander {
    hubPublish(log: string, maxLen: number, channel: string, ...events: string[]): Promise<string>
  }
}

/** An event as it travels: its id, the id before it in the log, and the event. */
interface Entry {
  readonly id: string
  readonly prev: string
  readonly event: HubEvent
}

/** What the log says of one entry, as XRANGE gives it: [id, [field, value, …]]. */
type RawEntry = [string, string[]]

/** Orders two stream ids (`<ms>-<seq>`): negative, zero or positive, as `sort` takes. */
export function compareIds(a: string, b: string): number {
  const [am = 0, as = 0] = a.split('-').map(Number)
  const [bm = 0, bs = 0] = b.split('-').map(Number)
  return am !== bm ? am - bm : as - bs
}

const STREAM_ID = /^\d{1,15}-\d{1,15}$/

export interface RedisHubOptions {
  /** A client for commands (the log is written and read with it). */
  readonly commands: Redis
  /** A client of its own for the channel (a subscribed client takes no other command). */
  readonly subscriber: Redis
  /** Events kept for replay, here and (approximately) in the log. */
  readonly replaySize: number
  /** Prefix of the log's key and the channel's name. */
  readonly prefix?: string
  /** The server time a gap marker carries (the emulator's clock, or the wall clock). */
  readonly now: () => number
  /** An event that could not be published (Redis down): it is lost; count it and log it. */
  readonly onPublishFailed?: (err: unknown) => void
  readonly onListenerError?: (err: unknown) => void
  readonly log?: { warn(obj: object, msg: string): void }
  /** The wait before a failed subscription or read of the log is tried again (ms). */
  readonly retryMs?: number
}

/** The wait before a failed subscription or read of the log is tried again, by default (ms). */
const RETRY_MS = 1_000

/**
 * The push channel's hub shared by every process of a deployment (docs/deploy.md): an event is
 * appended to a Redis stream (the replay log, trimmed to about `replaySize`) and sent to every
 * process on a pub/sub channel, both in one script. Ids are the stream's (`<ms>-<seq>`), the same
 * in every process, so a client may reconnect to any process with `Last-Event-ID`.
 *
 * Each process keeps a mirror of the log's tail, fed by the channel and read from the log at start
 * and after any message it missed (a broken chain, a reconnection), so `since` stays synchronous
 * and the stream route still replays and subscribes in one turn. Listeners are called in id order,
 * when the event comes back on the channel, the publishing process's own included.
 *
 * `publish` does not wait: a failure (Redis down) is counted and logged, the event is lost, and
 * once Redis answers again a `snapshot` (`reason: 'gap'`) is published to everybody, so open
 * streams and reconnecting clients read their state again.
 */
export class RedisEventHub implements EventHub {
  private readonly key: string
  private readonly channel: string
  private readonly listeners = new Set<HubListener>()
  /** The mirror: the log's tail, oldest first; every event after `floor` up to the newest is here. */
  private mirror: HubEvent[] = []
  private floor = '0-0'
  /** Whether the mirror has been read from the log at least once. */
  private loaded = false
  /** A read of the log in progress; messages wait in `held` until it is done. */
  private catching = false
  /** A read of the log failed (Redis down) and is tried again when a client is ready. */
  private catchUpDue = false
  private held: Entry[] = []
  /** Events published in this turn of the event loop, sent together when it is over. */
  private outbox: string[] = []
  /** An event was lost since the last gap marker. */
  private lost = false
  private closed = false
  private retry: NodeJS.Timeout | null = null
  private readonly onReady = () => this.resubscribe()
  private readonly onCommandsReady = () => {
    if (this.catchUpDue) this.catchUp()
    if (this.lost) this.sendMarker()
  }

  constructor(private readonly opts: RedisHubOptions) {
    if (!Number.isInteger(opts.replaySize) || opts.replaySize < 1)
      throw new RangeError('replay size must be ≥ 1')
    const prefix = opts.prefix ?? 'hashgame:events'
    this.key = `${prefix}:log`
    this.channel = `${prefix}:live`
    if (!opts.commands.hubPublish)
      opts.commands.defineCommand('hubPublish', { numberOfKeys: 1, lua: PUBLISH_SCRIPT })
    opts.subscriber.on('message', this.onMessage)
    opts.subscriber.on('ready', this.onReady)
    opts.commands.on('ready', this.onCommandsReady)
    if (opts.subscriber.status === 'ready') this.resubscribe()
  }

  publish(event: StreamEvent, audience: Audience): void {
    if (this.lost) this.sendMarker()
    this.send(JSON.stringify({ type: event.type, data: event.data, audience }))
  }

  subscribe(listener: HubListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  since(lastId: string): HubEvent[] | null {
    if (!this.loaded) return null
    if (lastId === this.floor) return this.mirror.slice()
    if (!STREAM_ID.test(lastId)) return null
    // Binary search: ids in the mirror only go up.
    let lo = 0
    let hi = this.mirror.length - 1
    while (lo <= hi) {
      const mid = (lo + hi) >> 1
      const c = compareIds(this.mirror[mid]?.id ?? '0-0', lastId)
      if (c === 0) return this.mirror.slice(mid + 1)
      if (c < 0) lo = mid + 1
      else hi = mid - 1
    }
    return null
  }

  lastId(): string {
    return this.mirror.at(-1)?.id ?? this.floor
  }

  /** Whether the hub hears the other processes and has read the log (the readiness check). */
  get ready(): boolean {
    return (
      this.loaded &&
      !this.catchUpDue &&
      this.opts.subscriber.status === 'ready' &&
      this.opts.commands.status === 'ready'
    )
  }

  /** Stops listening to Redis (the clients are their maker's to close). */
  async close(): Promise<void> {
    this.closed = true
    if (this.retry) clearTimeout(this.retry)
    this.opts.subscriber.off('message', this.onMessage)
    this.opts.subscriber.off('ready', this.onReady)
    this.opts.commands.off('ready', this.onCommandsReady)
    this.listeners.clear()
    if (this.opts.subscriber.status === 'ready')
      await this.opts.subscriber.unsubscribe(this.channel).catch(() => {})
  }

  private send(payload: string): void {
    if (this.outbox.length === 0) queueMicrotask(() => this.sendOutbox())
    this.outbox.push(payload)
  }

  private sendOutbox(): void {
    const payloads = this.outbox
    this.outbox = []
    if (payloads.length === 0) return
    this.opts.commands
      .hubPublish(this.key, this.opts.replaySize, this.channel, ...payloads)
      .catch((err: unknown) => {
        this.lost = true
        for (const _ of payloads) this.opts.onPublishFailed?.(err)
      })
  }

  /** Tells everybody that events were lost: a `snapshot` with `reason: 'gap'`, ahead of what follows. */
  private sendMarker(): void {
    if (this.opts.commands.status !== 'ready') return
    this.lost = false
    const marker = { type: 'snapshot', data: { reason: 'gap', server_time: this.opts.now() } } as const
    this.send(JSON.stringify({ ...marker, audience: EVERYONE }))
  }

  /** On each (re)connection of the subscriber: subscribe, then read what was missed meanwhile. */
  private resubscribe(): void {
    if (this.closed) return
    this.opts.subscriber.subscribe(this.channel).then(
      () => this.catchUp(),
      (err: unknown) => {
        this.opts.log?.warn({ err }, 'push channel: subscribing failed')
        this.retryLater(() => {
          if (this.opts.subscriber.status === 'ready') this.resubscribe()
        })
      },
    )
  }

  private readonly onMessage = (channel: string, message: string): void => {
    if (channel !== this.channel || this.closed) return
    for (const part of message.split(ENTRY_SEPARATOR)) this.onEntry(part)
  }

  private onEntry(message: string): void {
    const first = message.indexOf('\n')
    const second = message.indexOf('\n', first + 1)
    if (first < 0 || second < 0) return
    const id = message.slice(0, first)
    const entry = this.entryOf(id, message.slice(first + 1, second), message.slice(second + 1))
    if (!entry) return
    if (!this.loaded || this.catching || !this.accept(entry)) {
      this.hold(entry)
      this.catchUp()
    }
  }

  /** Applies an entry that follows the newest one; true when done with it (applied, or already had). */
  private accept(entry: Entry): boolean {
    const newest = this.lastId()
    if (compareIds(entry.id, newest) <= 0) return true
    if (entry.prev !== newest) return false
    this.apply(entry.event)
    return true
  }

  private apply(event: HubEvent): void {
    this.mirror.push(event)
    if (this.mirror.length > this.opts.replaySize) {
      const dropped = this.mirror.shift()
      if (dropped) this.floor = dropped.id
    }
    this.tell(event)
  }

  private tell(event: HubEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event)
      } catch (err) {
        this.opts.onListenerError?.(err)
      }
    }
  }

  private hold(entry: Entry): void {
    this.held.push(entry)
    // A bounded wait: what is dropped here is read from the log by the next catch-up.
    if (this.held.length > 2 * this.opts.replaySize)
      this.held.splice(0, this.held.length - this.opts.replaySize)
  }

  /** Reads the log: all of its tail the first time, else what came after the newest event. */
  private catchUp(): void {
    if (this.catching || this.closed) return
    if (this.opts.commands.status !== 'ready') {
      this.catchUpDue = true
      return
    }
    this.catching = true
    this.catchUpDue = false
    const read = this.loaded ? this.readAfter(this.lastId()) : this.load()
    read.then(
      () => {
        this.catching = false
        this.release()
      },
      (err: unknown) => {
        this.catching = false
        this.catchUpDue = true
        this.opts.log?.warn({ err }, 'push channel: reading the event log failed')
        // Redis answered badly or late without dropping the connection: no `ready` will come.
        this.retryLater(() => {
          if (this.catchUpDue) this.catchUp()
        })
      },
    )
  }

  /** Runs `fn` once in a while (a failed subscription or read), unless the hub is closed first. */
  private retryLater(fn: () => void): void {
    if (this.retry || this.closed) return
    this.retry = setTimeout(() => {
      this.retry = null
      if (!this.closed) fn()
    }, this.opts.retryMs ?? RETRY_MS)
    this.retry.unref()
  }

  /** Applies the held messages in id order; a break in the chain starts another catch-up. */
  private release(): void {
    const held = this.held.sort((a, b) => compareIds(a.id, b.id))
    this.held = []
    for (let i = 0; i < held.length; i++) {
      const entry = held[i] as Entry
      if (!this.accept(entry)) {
        this.held = held.slice(i)
        this.catchUp()
        return
      }
    }
  }

  private async load(): Promise<void> {
    const raw = (await this.opts.commands.xrevrange(
      this.key,
      '+',
      '-',
      'COUNT',
      this.opts.replaySize,
    )) as RawEntry[]
    const entries = raw.reverse().flatMap((r) => this.entryOfRaw(r) ?? [])
    if (this.closed) return
    this.mirror = entries.map((e) => e.event)
    this.floor = entries[0]?.prev ?? '0-0'
    this.loaded = true
  }

  private async readAfter(after: string): Promise<void> {
    const start = after === '0-0' ? '-' : `(${after}`
    const raw = (await this.opts.commands.xrange(
      this.key,
      start,
      '+',
      'COUNT',
      this.opts.replaySize,
    )) as RawEntry[]
    for (const r of raw) {
      const entry = this.entryOfRaw(r)
      if (!entry || this.closed) continue
      const newest = this.lastId()
      if (compareIds(entry.id, newest) <= 0) continue
      if (entry.prev !== newest) {
        // What came between was trimmed from the log before this process read it: replay from
        // before here is no longer whole. Streams open here are told to read their state again.
        this.opts.log?.warn({ newest, next: entry.id }, 'push channel: events missed, replay restarts')
        this.mirror = []
        this.floor = entry.prev
        this.tell({
          type: 'snapshot',
          data: { reason: 'gap', server_time: this.opts.now() },
          id: entry.prev,
          audience: EVERYONE,
        })
      }
      this.apply(entry.event)
    }
    // A full page: there may be more.
    if (raw.length === this.opts.replaySize && !this.closed) await this.readAfter(this.lastId())
  }

  private entryOfRaw([id, fields]: RawEntry): Entry | null {
    let prev = '0-0'
    let body = ''
    for (let i = 0; i + 1 < fields.length; i += 2) {
      if (fields[i] === 'p') prev = fields[i + 1] as string
      else if (fields[i] === 'e') body = fields[i + 1] as string
    }
    return this.entryOf(id, prev, body)
  }

  private entryOf(id: string, prev: string, body: string): Entry | null {
    try {
      const parsed = JSON.parse(body) as { type: string; data: unknown; audience: Audience }
      const event = { type: parsed.type, data: parsed.data, id, audience: parsed.audience } as HubEvent
      return { id, prev, event }
    } catch (err) {
      this.opts.log?.warn({ err, id }, 'push channel: an unreadable event in the log')
      return null
    }
  }
}
