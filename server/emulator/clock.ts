import { AsyncLocalStorage } from 'node:async_hooks'

/**
 * The emulator's clock. Everything time-based in the emulator (sessions, SMS codes, blocks,
 * draws, deposits, withdrawals, locks) reads `now()` from here, never `Date.now()`, so a tester
 * can freeze it, offset it or advance it.
 *
 * `now()` is the world clock: the shared world (blocks, draws, settlement, confirmations,
 * approvals) runs on it, whichever request happens to be running.
 *
 * Scopes: a tester's scope (the `x-emu-scope` header, else the session token) may have its own
 * clock, layered on the world clock: "real" follows the world clock, "offset" runs at the world
 * clock plus a shift, "frozen" stands still. It applies to the per-player deadlines checked on
 * behalf of a request of that scope — session lifetimes, and whatever reads `requestNow()` — never
 * to the world, so one tester moving their clock cannot draw rounds early for everyone else. Only
 * the world clock fires `onChange`. Security limits (password locks, SMS limits) read the world
 * clock, so a scope's clock can never lift them.
 */
export type ClockMode = 'real' | 'frozen' | 'offset'

export interface ClockState {
  readonly mode: ClockMode
  readonly now: number
  readonly offsetMs: number
}

type Listener = (now: number) => void

/** The world clock as kept across a restart (see `kept` and `resume`). */
export interface KeptClock {
  readonly mode: ClockMode
  readonly offsetMs: number
  readonly frozenAt: number
}

export class EmuClock {
  private mode: ClockMode = 'real'
  private offsetMs = 0
  private frozenAt = 0
  private readonly listeners = new Set<Listener>()
  private readonly scopeClocks = new Map<string, EmuClock>()
  /** The clock of the scope of the request being handled, when that scope has one. */
  private readonly requestScope = new AsyncLocalStorage<EmuClock>()

  constructor(private readonly realNow: () => number = Date.now) {}

  /** The world's time; `requestNow()` is the time of the request being handled. */
  now(): number {
    return this.worldNow()
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

  /** What a restart needs to carry the world clock on: its mode, shift and frozen time. */
  kept(): KeptClock {
    return { mode: this.mode, offsetMs: this.offsetMs, frozenAt: this.frozenAt }
  }

  /**
   * Takes up a clock kept before a restart, without firing `onChange`: the mode it had, at no
   * earlier a time than `seenAt` (the last world time seen then). A clock already later than that
   * is left as it is. The world clock never moves back across a restart.
   */
  resume(kept: KeptClock, seenAt: number): void {
    const real = this.realNow()
    const keptNow =
      kept.mode === 'frozen' ? kept.frozenAt : real + (kept.mode === 'offset' ? kept.offsetMs : 0)
    const target = Math.max(keptNow, seenAt)
    if (this.worldNow() >= target) return
    if (kept.mode === 'frozen') {
      this.mode = 'frozen'
      this.frozenAt = target
    } else {
      this.mode = 'offset'
      this.offsetMs = target - real
    }
  }

  /**
   * Takes up a clock as another process has it (the fault layer's shared state in proxy mode, see
   * server/fault/shared-faults.ts): its mode, shift and frozen time exactly, backwards too.
   * Listeners hear of it when the time it gives changes.
   */
  adopt(kept: KeptClock): void {
    const { mode, offsetMs, frozenAt } = this
    if (mode === kept.mode && offsetMs === kept.offsetMs && frozenAt === kept.frozenAt) return
    this.mode = kept.mode
    this.offsetMs = kept.offsetMs
    this.frozenAt = kept.frozenAt
    this.changed()
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

  /** Every scope's clock as kept (see `kept`). */
  scopesKept(): { scope: string; clock: KeptClock }[] {
    return [...this.scopeClocks].map(([scope, clock]) => ({ scope, clock: clock.kept() }))
  }

  scopeStates(): { scope: string; clock: ClockState }[] {
    return [...this.scopeClocks].map(([scope, clock]) => ({ scope, clock: clock.state() }))
  }

  /**
   * The time of the request being handled: its scope's clock when it has one, else the world's.
   * For per-player deadlines checked on a request's behalf (a session); never for a security limit.
   */
  requestNow(): number {
    return this.requestScope.getStore()?.now() ?? this.worldNow()
  }

  /** Runs fn (and everything it starts) as part of a request of this scope: `requestNow()` reads its clock. */
  runInScope<T>(scope: string | null | undefined, fn: () => T): T {
    const scoped = this.scopeClock(scope)
    return scoped ? this.requestScope.run(scoped, fn) : fn()
  }

  private changed(): void {
    const now = this.worldNow()
    for (const l of this.listeners) l(now)
  }
}
