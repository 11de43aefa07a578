import { AsyncLocalStorage } from 'node:async_hooks'
import { randomUUID } from 'node:crypto'
import { CODE } from '@shared/envelope'
import type { FastifyBaseLogger } from 'fastify'
import type { Redis } from 'ioredis'
import type { EmuClock, KeptClock } from '../emulator/clock'
import { ApiError } from '../http/api-error'
import type { FaultLayer, SharedDecisions } from './fault-layer'
import type { SessionClaim, SessionSnapshot, SessionTaken } from './fault-matching'
import type { Candidate, Firing, RequestFacts, RuleCounts, RuleEntry } from './rule-store'
import { RuleStore } from './rule-store'
import { COUNT_LUA, DECIDE_LUA, SESSION_LUA, UNLOCK_LUA } from './shared-faults-lua'

/** Everything the tester set up that every process must have, but counters and machine states. */
interface Snapshot {
  readonly seed: number
  readonly rules: RuleEntry[]
  readonly sessions: SessionSnapshot
  readonly scenarios: [string | null, string][]
  readonly clock: { world: KeptClock; scopes: { scope: string; clock: KeptClock }[] }
}

/** What a load read from Redis, for the write that follows it in a change. */
interface Loaded {
  /** Puts the replica back as this load left it (a change that could not be written). */
  readonly restore: () => void
  readonly version: number
  readonly json: string
  readonly states: ReadonlyMap<string, string>
  readonly ruleIds: ReadonlySet<string>
  readonly pendingIds: ReadonlySet<string>
  readonly limitIds: ReadonlySet<string>
}

interface Announcement {
  /** The version written. */
  readonly v: number
  /** The process that wrote it. */
  readonly from: string
  /** A reset of the journal: a scope, or `*` for every one (each process keeps its own journal). */
  readonly journal?: string
}

export interface SharedFaultsOptions {
  /** The connection for commands. */
  readonly redis: Redis
  /** A connection of its own for pub/sub (a subscribed connection takes no other commands). */
  readonly subscriber: Redis
  readonly log: FastifyBaseLogger
  /** Prefix of every key and channel; processes with the same one share their fault layer. */
  readonly prefix?: string
  /**
   * Longest wait for Redis on a player's request (a Redis that hangs; one that is down fails at
   * once); then counted rules don't fire.
   */
  readonly requestTimeoutMs?: number
  /** Longest wait for Redis on a control call; then it is refused (503). */
  readonly controlTimeoutMs?: number
  /** How long a change waits for the other processes to take it up before it answers. */
  readonly settleMs?: number
  /** How long a change holds the lock at most (a scenario's steps run under it). */
  readonly lockMs?: number
}

const UNAVAILABLE = '故障层的共享状态（Redis）不可用：改动没有生效，请稍后再试'

/** Empty shared state: what a process has before any change. */
const EMPTY_SESSIONS: SessionSnapshot = { faults: [], limits: [], pending: [] }

class Timeout extends Error {
  override name = 'Timeout'
}

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Timeout(`Redis did not answer within ${ms} ms`)), ms)
    timer.unref()
  })
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}

const pause = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms).unref()
  })

/**
 * The fault layer shared by the processes of a proxy-mode deployment through Redis
 * (docs/testing.md#several-processes).
 *
 * Each process keeps a replica of the tester's set-up — rules, machine states, the seed, session
 * faults, scenarios, the world clock and the scopes' clocks — and decides from it. A control call
 * that changes any of it takes a lock in Redis, loads the current state, makes its change on the
 * replica, writes the whole set-up back (one JSON value; machine states as a hash, written as a
 * diff), and announces the new version on a channel; every other process loads it and answers
 * that it has, and the control call answers once they all have (or after `settleMs`). A process
 * that starts, or whose connection comes back, loads the state.
 *
 * Counting is claimed in Redis, atomically (./shared-faults-lua.ts): a call that matches a counted
 * rule (`times`, `after`, `every`, `nth`, `probability` below 1, `retryPasses`, a state machine)
 * is decided by a script, so two processes cannot both take the last firing; so are `any` session
 * faults and session limits in requests. A call that matches only uncounted rules is decided by
 * the replica alone, and its counts are added in Redis without waiting.
 *
 * Redis unreachable: requests are never held longer than `requestTimeoutMs`; the replica goes on
 * deciding with its uncounted rules and session faults; counted rules don't fire; control calls
 * that change something are refused with 503; the outage is logged once, and the state loaded
 * again when Redis is back.
 */
export class SharedFaults implements SharedDecisions {
  /** This process, in announcements. */
  readonly id = randomUUID()
  private readonly prefix: string
  private readonly requestTimeoutMs: number
  private readonly controlTimeoutMs: number
  private readonly settleMs: number
  private readonly lockMs: number
  private version = 0
  /** Set while this process makes a change: a step of a scenario calling /__emu joins it. */
  private readonly changing = new AsyncLocalStorage<true>()
  /** Changes in progress here: loads wait for them, since they would undo them half-way. */
  private busy = 0
  private loading: Promise<void> | null = null
  private loadAgain = false
  private down = false
  /** Processes that answered having taken up a version, by version. */
  private readonly taken = new Map<number, Set<string>>()
  private readonly takenListeners = new Set<() => void>()
  private stopped = false

  constructor(
    private readonly layer: FaultLayer,
    private readonly clock: EmuClock,
    private readonly opts: SharedFaultsOptions,
  ) {
    this.prefix = opts.prefix ?? 'emu:faults'
    this.requestTimeoutMs = opts.requestTimeoutMs ?? 1_000
    this.controlTimeoutMs = opts.controlTimeoutMs ?? 2_000
    this.settleMs = opts.settleMs ?? 2_000
    this.lockMs = opts.lockMs ?? 30_000
  }

  private key(name: string): string {
    return `${this.prefix}:${name}`
  }

  /** Takes the fault layer over: loads the shared state, and follows every change from now on. */
  async start(): Promise<void> {
    const { redis, subscriber } = this.opts
    this.layer.shared = this
    const channels = [this.key('changed'), this.key('taken')]
    subscriber.on('message', (channel: string, message: string) => this.heard(channel, message))
    // Back after an outage (or connected for the first time): subscribed again (whether or not the
    // client does it by itself), and the state may have moved on meanwhile.
    redis.on('ready', () => this.loadSoon())
    subscriber.on('ready', () => {
      subscriber.subscribe(...channels).then(
        () => this.loadSoon(),
        (err: unknown) => this.noteDown(err),
      )
    })
    redis.on('error', (err: Error) => this.noteDown(err))
    subscriber.on('error', (err: Error) => this.noteDown(err))
    const ready = (client: Redis) =>
      client.status === 'ready'
        ? Promise.resolve()
        : new Promise<void>((resolve) => client.once('ready', () => resolve()))
    try {
      await within(Promise.all([ready(redis), ready(subscriber)]), this.controlTimeoutMs)
      await within(subscriber.subscribe(...channels), this.controlTimeoutMs)
      await this.load(true)
    } catch (err) {
      // The server starts all the same, with an empty replica; it loads once Redis answers.
      this.noteDown(err)
    }
  }

  stop(): void {
    this.stopped = true
    if (this.layer.shared === this) this.layer.shared = null
  }

  private noteDown(err: unknown): void {
    if (this.down || this.stopped) return
    this.down = true
    this.opts.log.warn(
      { err },
      'fault layer: shared state (Redis) unreachable; deciding from the last state loaded, counted rules do not fire, changes are refused',
    )
  }

  private noteUp(): void {
    if (!this.down) return
    this.down = false
    this.opts.log.info('fault layer: shared state (Redis) answering again')
  }

  private heard(channel: string, message: string): void {
    let note: Partial<Announcement>
    try {
      note = JSON.parse(message) as Partial<Announcement>
    } catch {
      return
    }
    if (typeof note.v !== 'number' || typeof note.from !== 'string' || note.from === this.id) return
    if (channel === this.key('taken')) {
      let seen = this.taken.get(note.v)
      if (!seen) {
        seen = new Set()
        this.taken.set(note.v, seen)
      }
      seen.add(note.from)
      // Answers nobody waits for (the processes answer every load) are dropped, oldest first.
      for (const v of this.taken.keys()) if (this.taken.size > 64) this.taken.delete(v)
      for (const l of this.takenListeners) l()
      return
    }
    if (channel !== this.key('changed')) return
    if (note.journal !== undefined) {
      // A reset: the scope's calls and recording go on every process, as on the one reset through.
      const scope = note.journal === '*' ? undefined : note.journal
      this.layer.journal?.clear(scope)
      if (scope === undefined) this.layer.recorders.clear()
      else this.layer.recorders.delete(scope)
    }
    this.loadSoon()
  }

  /** Loads the shared state once what is loading now is done; then says so on the `taken` channel. */
  private loadSoon(): void {
    if (this.stopped) return
    if (this.busy > 0 || this.loading) {
      this.loadAgain = true
      return
    }
    this.loading = this.load(false)
      .then(() =>
        this.opts.redis.publish(this.key('taken'), JSON.stringify({ v: this.version, from: this.id })),
      )
      .then(
        () => undefined,
        (err: unknown) => this.noteDown(err),
      )
      .finally(() => {
        this.loading = null
        if (this.loadAgain && this.busy === 0) {
          this.loadAgain = false
          this.loadSoon()
        }
      })
  }

  /**
   * Before a control call reads the set-up: the state as Redis has it now, counters included. Redis
   * unreachable: the replica as it is.
   */
  async refresh(): Promise<void> {
    if (this.changing.getStore() || this.busy > 0) return
    await this.load(false).catch((err: unknown) => this.noteDown(err))
  }

  /** Reads the whole shared state in one transaction and, unless a change here is under way, takes it up. */
  private async load(force: boolean): Promise<Loaded> {
    const { redis } = this.opts
    const res = await within(
      redis
        .multi()
        .get(this.key('state'))
        .get(this.key('version'))
        .hgetall(this.key('states'))
        .hgetall(this.key('counts'))
        .exec(),
      this.controlTimeoutMs,
    )
    if (!res) throw new Error('Redis transaction aborted')
    for (const [err] of res) if (err) throw err
    const json = (res[0]?.[1] as string | null) ?? ''
    const version = Number((res[1]?.[1] as string | null) ?? 0)
    const states = new Map(Object.entries((res[2]?.[1] as Record<string, string> | null) ?? {}))
    const counts = (res[3]?.[1] as Record<string, string> | null) ?? {}
    const snapshot: Snapshot | null = json === '' ? null : (JSON.parse(json) as Snapshot)
    // An older read never undoes a newer one; version 0 is a Redis that has nothing (emptied).
    if (force || (this.busy === 0 && (version >= this.version || version === 0))) {
      this.apply(snapshot, states, counts)
      this.version = version
    }
    this.noteUp()
    const sessions = snapshot?.sessions ?? EMPTY_SESSIONS
    return {
      restore: () => this.apply(snapshot, states, counts),
      version,
      json: snapshot ? JSON.stringify(this.snapshot()) : '',
      states,
      ruleIds: new Set((snapshot?.rules ?? []).map((e) => e.rule.id)),
      pendingIds: new Set(sessions.pending.map((p) => p.id)),
      limitIds: new Set(sessions.limits.map((l) => l.id)),
    }
  }

  /** Makes the replica the shared state (null: nothing set up yet). */
  private apply(
    snapshot: Snapshot | null,
    states: Map<string, string>,
    counts: Record<string, string>,
  ): void {
    const layer = this.layer
    const count = (id: string): RuleCounts => ({
      matched: Number(counts[`${id}:m`] ?? 0),
      fired: Number(counts[`${id}:f`] ?? 0),
      spent: counts[`${id}:s`] === '1',
    })
    layer.rules.load(snapshot?.rules ?? [], states, count)
    if (snapshot) layer.rules.reseed(snapshot.seed)
    layer.matcher.loadSessions(
      snapshot?.sessions ?? EMPTY_SESSIONS,
      (id) => {
        const raw = counts[`p:${id}`]
        if (raw === undefined) return undefined
        const taken = JSON.parse(raw) as { t: string; at: number }
        return { token: taken.t, at: taken.at }
      },
      (id) => Number(counts[`sl:${id}`] ?? 0),
    )
    layer.loadScenarios(snapshot?.scenarios ?? [])
    this.clock.adopt(snapshot?.clock.world ?? { mode: 'real', offsetMs: 0, frozenAt: 0 })
    const scopes = snapshot?.clock.scopes ?? []
    const kept = new Set(scopes.map((s) => s.scope))
    for (const { scope } of this.clock.scopesKept()) if (!kept.has(scope)) this.clock.dropScope(scope)
    for (const { scope, clock } of scopes) this.clock.forScope(scope).adopt(clock)
  }

  /** The replica's set-up, as written to Redis (counters are Redis's own). */
  private snapshot(): Snapshot {
    const layer = this.layer
    return {
      seed: layer.rules.seed,
      rules: layer.rules
        .entries()
        .map(({ rule, seed }) => ({ rule: { ...rule, matched: 0, fired: 0, spent: false }, seed })),
      sessions: layer.matcher.sessionSnapshot(),
      scenarios: layer.scenarioEntries(),
      clock: { world: this.clock.kept(), scopes: this.clock.scopesKept() },
    }
  }

  /**
   * Runs a control call's change on every process: under the lock, on the state as Redis has it,
   * then written back and announced; answers once the other processes have taken it up (or after
   * `settleMs`). `journal`: the call also resets the journal of a scope (or `*`), on every process.
   * Redis unreachable: refused with 503, nothing changed.
   */
  async change<T>(fn: () => T | Promise<T>, journal?: string): Promise<T> {
    // A scenario's step calling /__emu runs inside the activation's change.
    if (this.changing.getStore()) return fn()
    return this.changing.run(true, async () => {
      // Waiting for the lock changes nothing here yet: meanwhile this process takes up others' changes.
      const lock = await this.lock()
      this.busy++
      try {
        let loaded: Loaded
        try {
          loaded = await this.load(true)
        } catch (err) {
          this.noteDown(err)
          throw new ApiError(CODE.unavailable, UNAVAILABLE, 503)
        }
        let result: T | undefined
        let failure: unknown = null
        try {
          result = await fn()
        } catch (err) {
          failure = err
        }
        // Whatever the call changed before it failed is shared too: the replica is the truth now.
        let receivers: number
        try {
          receivers = await this.write(loaded, journal)
        } catch (err) {
          // Not written: not made here either, so this process does not part from the others.
          loaded.restore()
          throw err
        }
        if (receivers > 0) await this.settle(this.version, receivers)
        if (failure) throw failure
        return result as T
      } finally {
        await this.unlock(lock)
        this.busy--
        if (this.busy === 0 && this.loadAgain) {
          this.loadAgain = false
          this.loadSoon()
        }
      }
    })
  }

  private async lock(): Promise<string> {
    const value = `${this.id}:${randomUUID()}`
    const deadline = Date.now() + this.controlTimeoutMs * 5
    for (;;) {
      let got: string | null
      try {
        got = await within(
          this.opts.redis.set(this.key('lock'), value, 'PX', this.lockMs, 'NX'),
          this.controlTimeoutMs,
        )
      } catch (err) {
        this.noteDown(err)
        throw new ApiError(CODE.unavailable, UNAVAILABLE, 503)
      }
      if (got === 'OK') return value
      if (Date.now() > deadline) {
        throw new ApiError(CODE.unavailable, '故障层的共享状态正被另一个进程修改，请稍后再试', 503)
      }
      await pause(15)
    }
  }

  private async unlock(value: string): Promise<void> {
    await within(this.opts.redis.eval(UNLOCK_LUA, 1, this.key('lock'), value), this.controlTimeoutMs).catch(
      (err: unknown) => this.noteDown(err),
    )
  }

  /** Writes the replica's set-up over what `loaded` read, and announces it. Answers how many other processes heard. */
  private async write(loaded: Loaded, journal: string | undefined): Promise<number> {
    const snapshot = this.snapshot()
    const json = JSON.stringify(snapshot)
    const states = this.layer.rules.stateEntries()
    const set: string[] = []
    for (const [k, v] of states) if (loaded.states.get(k) !== v) set.push(k, v)
    const dropped = [...loaded.states.keys()].filter((k) => !states.has(k))
    if (json === loaded.json && set.length === 0 && dropped.length === 0 && journal === undefined) return 0
    const ruleIds = new Set(snapshot.rules.map((e) => e.rule.id))
    const pendingIds = new Set(snapshot.sessions.pending.map((p) => p.id))
    const limitIds = new Set(snapshot.sessions.limits.map((l) => l.id))
    const gone: string[] = []
    const removed = [...loaded.ruleIds].filter((id) => !ruleIds.has(id))
    for (const id of removed) gone.push(`${id}:m`, `${id}:f`, `${id}:s`, `${id}:d`, `${id}:a`)
    for (const id of loaded.pendingIds) if (!pendingIds.has(id)) gone.push(`p:${id}`)
    for (const id of [...loaded.limitIds, ...loaded.pendingIds]) if (!limitIds.has(id)) gone.push(`sl:${id}`)
    // Above every version seen, even after a Redis that lost its data.
    const version = Math.max(loaded.version, this.version) + 1
    const note: Announcement = { v: version, from: this.id, ...(journal === undefined ? {} : { journal }) }
    const tx = this.opts.redis.multi().set(this.key('state'), json).set(this.key('version'), String(version))
    tx.del(this.key('ids'))
    if (ruleIds.size > 0) tx.sadd(this.key('ids'), ...ruleIds)
    if (set.length > 0) tx.hset(this.key('states'), ...set)
    if (dropped.length > 0) tx.hdel(this.key('states'), ...dropped)
    if (gone.length > 0) tx.hdel(this.key('counts'), ...gone)
    tx.publish(this.key('changed'), JSON.stringify(note))
    let res: [Error | null, unknown][] | null
    try {
      res = await within(tx.exec(), this.controlTimeoutMs)
    } catch (err) {
      this.noteDown(err)
      throw new ApiError(CODE.unavailable, UNAVAILABLE, 503)
    }
    if (!res || res.some(([err]) => err)) throw new ApiError(CODE.unavailable, UNAVAILABLE, 503)
    this.version = version
    // Every subscriber heard it, this process's own included.
    return Math.max(0, Number(res.at(-1)?.[1] ?? 0) - 1)
  }

  /** Waits until `receivers` other processes have taken up `version`, or `settleMs` has passed. */
  private settle(version: number, receivers: number): Promise<void> {
    const enough = () => {
      let n = 0
      for (const [v, from] of this.taken) if (v >= version) n += from.size
      return n >= receivers
    }
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer)
        this.takenListeners.delete(check)
        for (const v of [...this.taken.keys()]) if (v <= version) this.taken.delete(v)
        resolve()
      }
      const check = () => {
        if (enough()) done()
      }
      const timer = setTimeout(done, this.settleMs)
      timer.unref()
      this.takenListeners.add(check)
      check()
    })
  }

  /**
   * The decision among candidates of which at least one is counted, taken in Redis; null when none
   * fires. Redis unreachable or late: the uncounted ones decide alone, from the replica.
   */
  async decide(candidates: readonly Candidate[], facts: RequestFacts): Promise<Firing | null> {
    const args = candidates.map(({ rule, seed }) => ({
      id: rule.id,
      after: rule.after,
      p: rule.probability,
      seed,
      ...(rule.match.nth === undefined ? {} : { nth: rule.match.nth }),
      ...(rule.every === undefined ? {} : { every: rule.every }),
      ...(rule.times === undefined ? {} : { times: rule.times }),
      ...(rule.retryPasses ? { retry: true } : {}),
      ...(rule.until === undefined ? {} : { until: rule.until }),
      ...(rule.inScenario === undefined
        ? {}
        : {
            m: RuleStore.stateKey(rule.scope, rule.inScenario),
            ...(rule.whenState === undefined ? {} : { w: rule.whenState }),
            ...(rule.setState === undefined ? {} : { s: rule.setState }),
          }),
    }))
    let raw: unknown
    try {
      raw = await within(
        this.opts.redis.eval(
          DECIDE_LUA,
          3,
          this.key('ids'),
          this.key('counts'),
          this.key('states'),
          JSON.stringify(args),
          String(facts.now),
          `${facts.method} ${facts.path}`,
        ),
        this.requestTimeoutMs,
      )
    } catch (err) {
      this.noteDown(err)
      return RuleStore.decideUncounted(
        candidates.filter((c) => !c.counted),
        facts.now,
      )
    }
    this.noteUp()
    const answer = JSON.parse(String(raw)) as {
      f: string
      c: [string, number, number, boolean][] | Record<string, never>
      mk: string
      mt: string
    }
    const rules = this.layer.rules
    for (const [id, matched, fired, spent] of Array.isArray(answer.c) ? answer.c : []) {
      rules.setCounts(id, { matched, fired, spent })
    }
    if (answer.mk !== '') {
      const [scope, name] = JSON.parse(answer.mk) as [string | null, string]
      rules.setState(scope, name, answer.mt)
    }
    const firing = candidates.find((c) => c.rule.id === answer.f)
    if (!firing) return null
    // The counters as Redis has them, for a stub's {{counter}}.
    const c = Array.isArray(answer.c) ? answer.c.find(([id]) => id === answer.f) : undefined
    if (c) Object.assign(firing.rule, { matched: c[1], fired: c[2], spent: c[3] })
    return { rule: firing.rule, action: firing.rule.action, random: firing.random }
  }

  /** Adds a call decided by the replica alone (no counted rule) to the shared counters, without waiting. */
  count(candidates: readonly Candidate[], firing: Firing | null): void {
    const ids = candidates.map((c) => c.rule.id)
    within(
      this.opts.redis.eval(COUNT_LUA, 2, this.key('ids'), this.key('counts'), ...ids, firing?.rule.id ?? ''),
      this.requestTimeoutMs,
    ).catch((err: unknown) => this.noteDown(err))
  }

  /**
   * The session part of a call with a token, claimed in Redis: the `any` faults it takes, and its
   * limit's count. Null when Redis is unreachable or late (nothing is taken or counted then).
   */
  async claimSession(claim: SessionClaim): Promise<SessionTaken | null> {
    const pending = claim.pending.map((p) => ({
      id: p.id,
      at: p.at,
      ...(p.requests === undefined ? {} : { n: p.requests }),
    }))
    try {
      const raw = await within(
        this.opts.redis.eval(
          SESSION_LUA,
          1,
          this.key('counts'),
          claim.token,
          JSON.stringify(pending),
          claim.limit?.id ?? '',
        ),
        this.requestTimeoutMs,
      )
      this.noteUp()
      const answer = JSON.parse(String(raw)) as {
        taken?: { id: string; at: number }[]
        limit: string
        used: number
      }
      return { taken: answer.taken ?? [], limit: answer.limit, used: answer.used }
    } catch (err) {
      this.noteDown(err)
      return null
    }
  }
}
