import type { JournalStreamEvent, StreamAction } from '@shared/emu-control'
import type { OutgoingEvent, StreamOutlet, StreamTap } from '../realtime/stream-tap'
import type { JournalRecord } from './journal'

/** How long after its last event a dropped stream is cut off (on the stream's timers). */
export const DROP_GRACE_MS = 250

/** Of each stream, the events the journal keeps (the newest); the counts cover them all. */
export const STREAM_EVENTS_KEPT = 30

/** What one stream's tap was set up with. */
export interface TapSetup {
  /** The rule's action that fired on the stream's opening, with its generator; null: none. */
  readonly fault: { readonly action: StreamAction; readonly random: () => number } | null
  /** The stream's journal entry; null when the journal is off. */
  readonly entry: JournalRecord | null
  /** Answer a `snapshot` (gap) instead of the replay: an earlier stream of the scope skipped events. */
  readonly gap: boolean
  /** Called when the stream skips its first event: the scope's next reconnection gets a gap. */
  readonly onSkip: () => void
  /** Wall-clock time, for the journal. */
  readonly now?: () => number
}

interface Delayed {
  readonly e: OutgoingEvent
  readonly note: string | null
  ready: boolean
}

/**
 * One stream under the fault layer (docs/testing.md#stream-faults): every event the stream would
 * send passes through `send`, which carries out the stream action of the rule that fired on its
 * opening (if any) and notes in the journal what was sent and what the fault did to it. Waits run
 * on the stream's own timers (the outlet's).
 */
export class StreamFaultTap implements StreamTap {
  readonly gap: boolean
  /** Events the stream handed over, before any fault. */
  private seen = 0
  private held: OutgoingEvent | null = null
  private readonly queue: Delayed[] = []
  private readonly pending = new Set<unknown>()
  private skipped = 0
  private done = false
  /** A drop is under way: nothing more is sent. */
  private cutting = false
  private readonly now: () => number

  constructor(
    private readonly outlet: StreamOutlet,
    private readonly setup: TapSetup,
  ) {
    this.gap = setup.gap
    this.now = setup.now ?? Date.now
    const entry = setup.entry
    if (entry) entry.stream = { events: 0, touched: 0, end: null, recent: [] }
    const action = setup.fault?.action
    // After no event: as the stream opens, whether or not an event comes (a replay may have none).
    if ((action?.type === 'streamDrop' || action?.type === 'streamSessionEnd') && action.afterEvents === 0) {
      this.later(0, () => this.finish())
    }
  }

  send(e: OutgoingEvent): void {
    if (this.done) return
    if (this.cutting) {
      this.note(e, false, 'streamDrop')
      return
    }
    this.seen++
    const action = this.setup.fault?.action
    if (!action) {
      this.out(e, null)
      return
    }
    const touches =
      !('events' in action) || action.events === undefined || action.events.includes(e.event.type)
    switch (action.type) {
      case 'streamDrop':
      case 'streamSessionEnd':
        if (this.seen > action.afterEvents) {
          this.finish()
          return
        }
        this.out(e, null)
        if (this.seen === action.afterEvents) this.finish()
        return
      case 'streamDelay': {
        if (!touches && this.queue.length === 0) {
          this.out(e, null)
          return
        }
        const ms = touches ? delayOf(action, this.setup.fault?.random ?? Math.random) : 0
        const item: Delayed = { e, note: touches ? `streamDelay ${ms}ms` : null, ready: !touches }
        this.queue.push(item)
        if (touches)
          this.later(ms, () => {
            item.ready = true
            this.flush()
          })
        return
      }
      case 'streamDuplicate':
        this.out(e, null)
        if (touches) this.out(e, 'streamDuplicate')
        return
      case 'streamReorder': {
        const held = this.held
        if (held) {
          this.held = null
          this.out(e, null)
          this.out(held, 'streamReorder')
          return
        }
        if (!touches) {
          this.out(e, null)
          return
        }
        this.held = e
        this.note(e, false, 'streamReorder: held')
        return
      }
      case 'streamSkip':
        if (this.seen > action.afterEvents && touches && this.skipped < action.count) {
          if (this.skipped === 0) this.setup.onSkip()
          this.skipped++
          this.note(e, false, 'streamSkip')
          return
        }
        this.out(e, null)
        return
      case 'streamRefuse':
        // Answered at the opening by the fault layer; a stream that opened is not touched.
        this.out(e, null)
        return
    }
  }

  closed(): void {
    this.done = true
    for (const t of this.pending) this.outlet.timers.clearTimeout(t)
    this.pending.clear()
    const stream = this.setup.entry?.stream
    if (stream && stream.end === null) stream.end = 'closed'
  }

  /** The action's end: the connection cut off, or a `session_end` of its own. */
  private finish(): void {
    if (this.done) return
    const action = this.setup.fault?.action
    const stream = this.setup.entry?.stream
    if (action?.type === 'streamSessionEnd') {
      this.out(
        { id: this.outlet.lastId(), event: { type: 'session_end', data: { reason: action.reason } } },
        'streamSessionEnd',
      )
      if (stream) stream.end = 'session_end'
      this.outlet.end()
      return
    }
    if (this.cutting) return
    // The cut comes a moment after the last event: a browser that gets an event and the cut
    // together may fail the body before the page has read the event (an errored stream drops
    // what it holds), and the drop would then seem to come earlier than asked.
    this.cutting = true
    this.later(DROP_GRACE_MS, () => {
      if (stream) stream.end = 'dropped'
      const entry = this.setup.entry
      if (entry) entry.outcome = 'dropped'
      this.outlet.drop()
    })
  }

  /** Sends the delayed events whose time has come, in order, up to the first still waiting. */
  private flush(): void {
    while (this.queue[0]?.ready) {
      const item = this.queue.shift()
      if (item) this.out(item.e, item.note)
    }
  }

  private later(ms: number, fn: () => void): void {
    const handle = this.outlet.timers.setTimeout(() => {
      this.pending.delete(handle)
      if (!this.done) fn()
    }, ms)
    this.pending.add(handle)
  }

  private out(e: OutgoingEvent, fault: string | null): void {
    if (this.done) return
    this.note(e, true, fault)
    this.outlet.send(e)
  }

  private note(e: OutgoingEvent, sent: boolean, fault: string | null): void {
    const stream = this.setup.entry?.stream
    if (!stream) return
    if (sent) stream.events++
    if (fault !== null) stream.touched++
    const kept: JournalStreamEvent = { at: this.now(), id: e.id, type: e.event.type, sent, fault }
    stream.recent.push(kept)
    if (stream.recent.length > STREAM_EVENTS_KEPT) stream.recent.shift()
  }
}

function delayOf(action: Extract<StreamAction, { type: 'streamDelay' }>, random: () => number): number {
  if (action.ms !== undefined) return action.ms
  const min = action.minMs ?? 0
  const max = Math.max(min, action.maxMs ?? min)
  return min + Math.floor(random() * (max - min + 1))
}
