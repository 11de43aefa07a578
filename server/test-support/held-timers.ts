import type { StreamTimers } from '../realtime/stream-tap'

/** Timers a test holds: nothing fires until the test says so; `pending` shows what was asked for. */
export class HeldTimers implements StreamTimers {
  private next = 1
  readonly pending = new Map<number, { fn: () => void; ms: number }>()
  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.next++
    this.pending.set(id, { fn, ms })
    return id
  }
  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number)
  }
  /** Runs every timer now pending (as if its time had come). */
  runAll(): void {
    const due = [...this.pending]
    this.pending.clear()
    for (const [, t] of due) t.fn()
  }
}
