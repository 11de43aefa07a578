/**
 * The emulator's clock. Everything time-based in the emulator (sessions, SMS codes, blocks,
 * draws, deposits, withdrawals, locks) reads `now()` from here, never `Date.now()`, so a tester
 * can freeze it, offset it or advance it.
 */
export type ClockMode = 'real' | 'frozen' | 'offset'

export interface ClockState {
  readonly mode: ClockMode
  readonly now: number
  readonly offsetMs: number
}

type Listener = (now: number) => void

export class EmuClock {
  private mode: ClockMode = 'real'
  private offsetMs = 0
  private frozenAt = 0
  private readonly listeners = new Set<Listener>()

  constructor(private readonly realNow: () => number = Date.now) {}

  now(): number {
    if (this.mode === 'frozen') return this.frozenAt
    return this.realNow() + this.offsetMs
  }

  state(): ClockState {
    return { mode: this.mode, now: this.now(), offsetMs: this.mode === 'offset' ? this.offsetMs : 0 }
  }

  /** Back to real time. */
  real(): void {
    this.mode = 'real'
    this.offsetMs = 0
    this.changed()
  }

  /** Stop at `at` (default: now) until advanced or released. */
  freeze(at: number = this.now()): void {
    this.mode = 'frozen'
    this.frozenAt = at
    this.changed()
  }

  /** Run at real speed, shifted so that now() reads `at`. */
  setOffset(offsetMs: number): void {
    this.mode = 'offset'
    this.offsetMs = offsetMs
    this.changed()
  }

  /** Move forward by ms (frozen stays frozen; real becomes offset). */
  advance(ms: number): void {
    if (ms < 0) throw new RangeError('the clock only moves forward')
    if (this.mode === 'frozen') this.frozenAt += ms
    else {
      this.mode = 'offset'
      this.offsetMs += ms
    }
    this.changed()
  }

  /** Called after each change, so timed work (draws, confirmations) catches up at once. */
  onChange(listener: Listener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  private changed(): void {
    const now = this.now()
    for (const l of this.listeners) l(now)
  }
}
