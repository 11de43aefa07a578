import { AsyncLocalStorage } from 'node:async_hooks'

/**
 * The emulator's clock. Everything time-based in the emulator (sessions, SMS codes, blocks,
 * draws, deposits, withdrawals, locks) reads `now()` from here, never `Date.now()`, so a tester
 * can freeze it, offset it or advance it.
 *
 * Scopes: a tester's scope (the `x-emu-scope` header, else the session token) may have its own
 * clock. It is layered on the world clock: "real" follows the world clock, "offset" runs at the
 * world clock plus a shift, "frozen" stands still. While a request of that scope is being
 * handled, `now()` answers the scope's time, so that scope's session lifetimes, SMS codes and
 * locks follow it. The shared world (blocks, draws, settlement, confirmations) is driven by the
 * ticker on the world clock: only the unscoped clock fires `onChange`.
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
  private readonly scopeClocks = new Map<string, EmuClock>()
  private readonly context = new AsyncLocalStorage<EmuClock>()

  constructor(private readonly realNow: () => number = Date.now) {}

  /** The time as the code running now sees it: the scope's clock inside a scoped request, else the world's. */
  now(): number {
    const scoped = this.context.getStore()
    return scoped ? scoped.now() : this.worldNow()
  }

  /** The world clock, whatever request is running: what blocks, draws and confirmations follow. */
  worldNow(): number {
    if (this.mode === 'frozen') return this.frozenAt
    return this.realNow() + this.offsetMs
  }

  state(): ClockState {
    const now = this.worldNow()
    return { mode: this.mode, now, offsetMs: this.mode === 'offset' ? this.offsetMs : 0 }
  }

  /** Back to real time. */
  real(): void {
    this.mode = 'real'
    this.offsetMs = 0
    this.changed()
  }

  /** Stop at `at` (default: now) until advanced or released. */
  freeze(at: number = this.worldNow()): void {
    this.mode = 'frozen'
    this.frozenAt = at
    this.changed()
  }

  /** Run at real speed, shifted by offsetMs. */
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

  /** The scope's own clock, created on first use as "real" (following the world clock). */
  forScope(scope: string): EmuClock {
    let clock = this.scopeClocks.get(scope)
    if (!clock) {
      clock = new EmuClock(() => this.worldNow())
      this.scopeClocks.set(scope, clock)
    }
    return clock
  }

  /** The scope's clock if it has one. */
  scopeClock(scope: string | null | undefined): EmuClock | undefined {
    return scope ? this.scopeClocks.get(scope) : undefined
  }

  /** The time a scope sees: its own clock if it has one, else the world's. */
  nowFor(scope: string | null | undefined): number {
    return this.scopeClock(scope)?.now() ?? this.worldNow()
  }

  /** Drops one scope's clock, or every scope's. */
  dropScope(scope?: string): void {
    if (scope === undefined) this.scopeClocks.clear()
    else this.scopeClocks.delete(scope)
  }

  scopeStates(): { scope: string; clock: ClockState }[] {
    return [...this.scopeClocks].map(([scope, clock]) => ({ scope, clock: clock.state() }))
  }

  /** Runs fn (and everything it starts) seeing the scope's time from `now()`. */
  runInScope<T>(scope: string | null | undefined, fn: () => T): T {
    const scoped = this.scopeClock(scope)
    return scoped ? this.context.run(scoped, fn) : fn()
  }

  private changed(): void {
    // World listeners run outside any scoped request, so the ticker sees the world's time.
    this.context.exit(() => {
      const now = this.worldNow()
      for (const l of this.listeners) l(now)
    })
  }
}
