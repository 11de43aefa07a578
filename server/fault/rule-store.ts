import { randomUUID } from 'node:crypto'
import { LAST_EVENT_ID_HEADER, streamRoute } from '@shared/contract/stream-route'
import {
  type FaultAction,
  type FaultRule,
  type FaultRuleInput,
  faultRuleInputSchema,
  isStreamAction,
  type MachineState,
  STARTED,
} from '@shared/emu-control'
import { globToRegExp } from './glob'
import { type FieldCheck, type Fields, fieldChecks } from './request-fields'
import { seededRandom } from './rng'

/** A rule that parses but cannot work as given. */
export class RuleInputError extends Error {
  override name = 'RuleInputError'
}

export interface RequestFacts {
  readonly method: string
  readonly path: string
  /** x-emu-scope, else the session token, else null. */
  readonly scope: string | null
  readonly now: number
  /** Query parameters, headers and body fields, read only when a rule asks. */
  readonly query?: () => Fields
  readonly headers?: () => Fields
  readonly body?: () => Fields
}

const NO_FIELDS: Fields = new Map()
const none = () => NO_FIELDS

export interface Firing {
  readonly rule: FaultRule
  readonly action: FaultAction
  /** The rule's own generator, for delay ranges. */
  readonly random: () => number
}

interface StoredRule {
  rule: FaultRule
  pathRe: RegExp
  random: () => number
  query: FieldCheck[]
  headers: FieldCheck[]
  body: FieldCheck[]
  /** The answer is a template that reads body fields. */
  templateBody: boolean
  /** Method and path of the call this rule last fired on, while its retry is still to come. */
  awaitingRetry: string | null
  /** A stream action: the rule sees the stream's openings only. */
  streamOnly: boolean
  /** The seed its generator started from (the rule's own, else the store's when it was added). */
  seed: number
}

/** A rule as shared between processes (./shared-faults.ts): its definition and its generator's seed. */
export interface RuleEntry {
  readonly rule: FaultRule
  readonly seed: number
}

/** A rule's counters as kept in Redis (./shared-faults.ts). */
export interface RuleCounts {
  readonly matched: number
  readonly fired: number
  readonly spent: boolean
}

/** A rule that matches a request, before its counters and state decide whether it fires. */
export interface Candidate {
  readonly rule: FaultRule
  readonly seed: number
  readonly random: () => number
  /** Whether firing depends on counts or a state machine, shared state a process must claim. */
  readonly counted: boolean
}

/**
 * The rules of the fault layer. Pure and synchronous: counting and the decision to fire happen
 * when the request matches, never after a delay, so "fail twice, then succeed" holds for a
 * client that retries while a delayed answer is still on its way.
 */
export class RuleStore {
  private readonly rules: StoredRule[] = []

  /**
   * Each rule draws from its own generator, seeded with the rule's seed or this one, so a rule
   * replays the same way whatever other scopes' rules are doing at the same time.
   */
  constructor(private seedValue = 1) {}

  get seed(): number {
    return this.seedValue
  }

  /** The seed for rules added from now on. */
  reseed(seed: number): void {
    this.seedValue = seed
  }

  /** Where each state machine is, by scope and name; absent means `Started`. */
  private readonly states = new Map<string, string>()

  private static key(scope: string | null | undefined, name: string): string {
    return JSON.stringify([scope ?? null, name])
  }

  stateOf(scope: string | null, name: string): string {
    return this.states.get(RuleStore.key(scope, name)) ?? STARTED
  }

  setState(scope: string | null, name: string, state: string): void {
    this.states.set(RuleStore.key(scope, name), state)
  }

  /** Every machine that has rules or has moved, or one scope's. */
  machines(scope?: string | null): MachineState[] {
    const seen = new Map<string, MachineState>()
    const note = (s: string | null, name: string) => {
      if (scope !== undefined && s !== scope) return
      seen.set(RuleStore.key(s, name), { scope: s, name, state: this.stateOf(s, name) })
    }
    for (const { rule } of this.rules) if (rule.inScenario) note(rule.scope ?? null, rule.inScenario)
    for (const k of this.states.keys()) {
      const [s, name] = JSON.parse(k) as [string | null, string]
      note(s, name)
    }
    return [...seen.values()]
  }

  add(input: FaultRuleInput, now: number): FaultRule {
    const parsed = faultRuleInputSchema.parse(input)
    if (
      (parsed.whenState !== undefined || parsed.setState !== undefined) &&
      parsed.inScenario === undefined
    ) {
      throw new RuleInputError('whenState 与 setState 需要 inScenario（状态机的名字）')
    }
    if (isStreamAction(parsed.action) && !globToRegExp(parsed.match.path).test(streamRoute.path)) {
      throw new RuleInputError(
        `${parsed.action.type} 只作用于推送通道：match.path 须匹配 ${streamRoute.path}，如 {"path":"${streamRoute.path}"}`,
      )
    }
    const rule: FaultRule = {
      ...parsed,
      id: randomUUID(),
      createdAt: now,
      matched: 0,
      fired: 0,
      spent: false,
    }
    this.rules.push(RuleStore.stored(rule, parsed.seed ?? this.seedValue))
    return rule
  }

  private static stored(rule: FaultRule, seed: number): StoredRule {
    const headers = { ...rule.match.headers }
    // A reconnection is an opening that says which event it saw last.
    if (rule.action.type === 'streamRefuse') headers[LAST_EVENT_ID_HEADER] = { present: true }
    return {
      rule,
      seed,
      pathRe: globToRegExp(rule.match.path),
      random: seededRandom(seed),
      query: fieldChecks(rule.match.query),
      headers: fieldChecks(headers, true),
      body: fieldChecks(rule.match.body),
      templateBody:
        'template' in rule.action &&
        rule.action.template === true &&
        /\{\{\s*request\.body\./.test(JSON.stringify(rule.action)),
      awaitingRetry: null,
      streamOnly: isStreamAction(rule.action),
    }
  }

  /** Every rule in order with its generator's seed: what another process needs to rebuild them. */
  entries(): RuleEntry[] {
    return this.rules.map(({ rule, seed }) => ({ rule, seed }))
  }

  /**
   * Replaces every rule and machine state with those given (a replica of the shared state), each
   * rule's counters as given or zero.
   */
  load(
    entries: readonly RuleEntry[],
    states: ReadonlyMap<string, string>,
    counts: (id: string) => RuleCounts | undefined,
  ): void {
    this.rules.length = 0
    for (const { rule, seed } of entries) {
      const c = counts(rule.id)
      this.rules.push(
        RuleStore.stored(
          { ...rule, matched: c?.matched ?? 0, fired: c?.fired ?? 0, spent: c?.spent ?? false },
          seed,
        ),
      )
    }
    this.states.clear()
    for (const [k, v] of states) this.states.set(k, v)
  }

  /** Every machine state by its key (see `stateKey`). */
  stateEntries(): Map<string, string> {
    return new Map(this.states)
  }

  /** The key a machine's state is kept under, here and in Redis. */
  static stateKey(scope: string | null | undefined, name: string): string {
    return RuleStore.key(scope, name)
  }

  /** Counters of a rule as read from the shared state, for listing. */
  setCounts(id: string, counts: RuleCounts): void {
    const rule = this.get(id)
    if (!rule) return
    rule.matched = counts.matched
    rule.fired = counts.fired
    rule.spent = counts.spent
  }

  /**
   * The rules that match this request on everything a process can judge alone — scope, method,
   * path, query, headers, body — in the order added. Whether one fires is decided from there: by
   * `decideUncounted` when none is counted, else atomically in Redis (./shared-faults.ts).
   */
  candidates(req: RequestFacts): Candidate[] {
    const found: Candidate[] = []
    const fields = requestFields(req)
    for (const stored of this.rules) {
      const { rule } = stored
      if (!matches(stored, req, fields)) continue
      found.push({ rule, seed: stored.seed, random: stored.random, counted: RuleStore.isCounted(rule) })
    }
    return found
  }

  /** Whether firing depends on anything but the request and the clock: counts, chance or a state machine. */
  static isCounted(rule: FaultRule): boolean {
    return (
      rule.match.nth !== undefined ||
      rule.after > 0 ||
      rule.every !== undefined ||
      rule.times !== undefined ||
      rule.probability < 1 ||
      rule.retryPasses ||
      rule.inScenario !== undefined
    )
  }

  /**
   * The decision among candidates none of which is counted: the first whose `until` has not passed
   * fires; every one counts the call. Counts only this process's replica (the caller adds them to
   * the shared counters).
   */
  static decideUncounted(candidates: readonly Candidate[], now: number): Firing | null {
    let firing: Firing | null = null
    for (const c of candidates) {
      c.rule.matched++
      if (firing || (c.rule.until !== undefined && now >= c.rule.until)) continue
      c.rule.fired++
      firing = { rule: c.rule, action: c.rule.action, random: c.random }
    }
    return firing
  }

  /** Every rule, or one scope's (`null`: the unscoped ones). */
  list(scope?: string | null): FaultRule[] {
    return this.rules.map((r) => r.rule).filter((r) => scope === undefined || (r.scope ?? null) === scope)
  }

  get(id: string): FaultRule | undefined {
    return this.rules.find((r) => r.rule.id === id)?.rule
  }

  remove(id: string): boolean {
    const i = this.rules.findIndex((r) => r.rule.id === id)
    if (i < 0) return false
    this.rules.splice(i, 1)
    return true
  }

  /** Removes every rule, or only those of one scope (`null`: the unscoped ones), and their machines' states. */
  clear(scope?: string | null): number {
    if (scope === undefined) this.states.clear()
    else {
      for (const k of [...this.states.keys()]) {
        if ((JSON.parse(k) as [string | null, string])[0] === scope) this.states.delete(k)
      }
    }
    let removed = 0
    for (let i = this.rules.length - 1; i >= 0; i--) {
      const stored = this.rules[i]
      if (stored && (scope === undefined || (stored.rule.scope ?? null) === scope)) {
        this.rules.splice(i, 1)
        removed++
      }
    }
    return removed
  }

  get size(): number {
    return this.rules.length
  }

  /**
   * Whether a rule that could fire on this request tests body fields: the decision must then wait
   * for the body.
   */
  needsBody(req: RequestFacts): boolean {
    for (const { rule, pathRe, body, templateBody } of this.rules) {
      if ((body.length === 0 && !templateBody) || rule.spent) continue
      if (rule.scope !== undefined && rule.scope !== req.scope) continue
      if (rule.match.method !== undefined && rule.match.method !== req.method) continue
      if (pathRe.test(req.path)) return true
    }
    return false
  }

  /** The first rule, in the order added, that fires for this request; every matching rule counts the call. */
  decide(req: RequestFacts): Firing | null {
    let firing: Firing | null = null
    const fields = requestFields(req)
    // The state the firing rule moves its machine to applies from the next call on: every rule
    // sees the states as they were when this call arrived, so the call that moved a machine is
    // not also counted (or fired) by the rules of the state it moved to.
    let move: { scope: string | null; name: string; state: string } | null = null
    for (const stored of this.rules) {
      const { rule, random } = stored
      if (!matches(stored, req, fields)) continue
      if (rule.inScenario !== undefined && rule.whenState !== undefined) {
        if (this.stateOf(rule.scope ?? null, rule.inScenario) !== rule.whenState) continue
      }
      const call = `${req.method} ${req.path}`
      if (rule.retryPasses && stored.awaitingRetry === call) {
        stored.awaitingRetry = null
        continue
      }
      rule.matched++
      if (firing) continue
      if (rule.spent) continue
      if (rule.until !== undefined && req.now >= rule.until) continue
      if (rule.match.nth !== undefined && rule.matched !== rule.match.nth) continue
      if (rule.matched <= rule.after) continue
      if (rule.every !== undefined && (rule.matched - rule.after) % rule.every !== 0) continue
      if (rule.probability < 1 && random() >= rule.probability) continue
      rule.fired++
      if (rule.retryPasses) stored.awaitingRetry = call
      if (rule.inScenario !== undefined && rule.setState !== undefined) {
        move = { scope: rule.scope ?? null, name: rule.inScenario, state: rule.setState }
      }
      if (rule.times !== undefined && rule.fired >= rule.times) rule.spent = true
      if (rule.match.nth !== undefined) rule.spent = true
      firing = { rule, action: rule.action, random }
    }
    if (move) this.setState(move.scope, move.name, move.state)
    return firing
  }
}

/** A request's query, headers and body fields, each read once and only when a rule asks. */
function requestFields(req: RequestFacts): {
  query: () => Fields
  headers: () => Fields
  body: () => Fields
} {
  const once = (read: (() => Fields) | undefined) => {
    let got: Fields | null = null
    return () => {
      got ??= (read ?? none)()
      return got
    }
  }
  return { query: once(req.query), headers: once(req.headers), body: once(req.body) }
}

/** Whether a rule's match (scope, method, path, the stream only, fields) takes this request. */
function matches(stored: StoredRule, req: RequestFacts, fields: ReturnType<typeof requestFields>): boolean {
  const { rule } = stored
  if (rule.scope !== undefined && rule.scope !== req.scope) return false
  if (rule.match.method !== undefined && rule.match.method !== req.method) return false
  if (!stored.pathRe.test(req.path)) return false
  if (stored.streamOnly && (req.path !== streamRoute.path || req.method !== streamRoute.method)) return false
  if (stored.query.length > 0 && !stored.query.every((c) => c(fields.query()))) return false
  if (stored.headers.length > 0 && !stored.headers.every((c) => c(fields.headers()))) return false
  if (stored.body.length > 0 && !stored.body.every((c) => c(fields.body()))) return false
  return true
}
