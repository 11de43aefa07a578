import { Readable, Transform } from 'node:stream'
import { SCOPE_HEADER, TOKEN_HEADER } from '@shared/constants'
import { LAST_EVENT_ID_HEADER } from '@shared/contract/stream-route'
import { CODE } from '@shared/envelope'
import { MSG } from '@shared/messages'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { EmuClock } from '../emulator/clock'
import type { StreamFaultHook } from '../realtime/stream-tap'
import { AdminAccess } from './admin-access'
import { FaultActions, shapeAnswer, toBuffer, type Verdict } from './fault-actions'
import { FaultMatcher, type SessionClaim, type SessionFault, type SessionTaken } from './fault-matching'
import { BODY_KEEP, Journal, type JournalRecord, tokenKey } from './journal'
import type { Recorder } from './recorder'
import { type Candidate, type Firing, type RequestFacts, RuleStore } from './rule-store'
import { StreamFaultTap } from './stream-faults'

export type { ShapeAction, Verdict } from './fault-actions'
export type { SessionFault } from './fault-matching'

/** Bytes of a streamed answer kept to read its envelope code for the journal. */
const TAP_LIMIT = 64 * 1024

const headerValue = (v: string | string[] | undefined): string | null =>
  typeof v === 'string' && v !== '' ? v : null

/**
 * The layer in front of /api in both modes, in three parts: matching (./fault-matching.ts: which
 * session fault or rule applies), actions (./fault-actions.ts: carrying it out on the real socket)
 * and admin access (./admin-access.ts: who may drive it). This class ties them to the request's
 * life (decide on arrival or once the body is read, shape the answer, write the journal) and
 * keeps what testers set up per scope: scenarios, recordings, the journal.
 */
/**
 * The set-up shared between processes (./shared-faults.ts, proxy mode with REDIS_URL), as the layer
 * and the control routes use it: counted decisions and session claims made once for the whole
 * deployment, and changes every process takes up.
 */
export interface SharedDecisions {
  /** The firing among candidates of which one at least is counted, claimed atomically. */
  decide(candidates: readonly Candidate[], facts: RequestFacts): Promise<Firing | null>
  /** Counts a call that matched only uncounted candidates (decided here), for the shared counters. */
  count(candidates: readonly Candidate[], firing: Firing | null): void
  /** Claims a session fault or lifetime for this token across the deployment. */
  claimSession(claim: SessionClaim): Promise<SessionTaken | null>
  /** A change to the set-up, made on the shared state and taken up by every process (`journal`: a scope's journal reset too). */
  change<T>(fn: () => T | Promise<T>, journal?: string): Promise<T>
  /** Loads the shared state as it is now (counters too), before the set-up is read. */
  refresh(): Promise<void>
}

export class FaultLayer {
  readonly matcher: FaultMatcher
  readonly actions = new FaultActions()
  readonly access: AdminAccess
  journal: Journal | null = null
  private readonly scenarios = new Map<string | null, string>()
  private readonly firingListeners = new Set<(rule: Firing['rule']) => void>()
  /** Recordings in progress, by scope (null: every call). */
  readonly recorders = new Map<string | null, Recorder>()
  /**
   * Proxy mode with REDIS_URL: the set-up shared with the deployment's other processes, and the
   * counted decisions claimed there (./shared-faults.ts). Null: this process alone decides.
   */
  shared: SharedDecisions | null = null
  /** Scopes (null: none) whose next stream reconnection gets a `snapshot` gap: a stream of theirs skipped events. */
  private readonly streamGaps = new Set<string | null>()

  /** `adminToken`: EMU_ADMIN_TOKEN, which every /__emu call must then carry. */
  constructor(
    private readonly clock: EmuClock,
    adminToken?: string,
  ) {
    this.matcher = new FaultMatcher(clock)
    this.access = new AdminAccess(adminToken)
  }

  get rules() {
    return this.matcher.rules
  }

  /** Proves a request came from the server itself (see AdminAccess). */
  get internalKey(): string {
    return this.access.internalKey
  }

  /** x-emu-scope, else the session token, else null (global). */
  static scopeOf(request: FastifyRequest): string | null {
    return headerValue(request.headers[SCOPE_HEADER]) ?? headerValue(request.headers[TOKEN_HEADER])
  }

  /** Keeps a journal of the last `capacity` requests from now on (0: none). */
  enableJournal(capacity: number): void {
    this.journal = capacity > 0 ? new Journal(capacity) : null
  }

  failSession(token: string, fault: SessionFault, scope: string | null = null): void {
    this.matcher.failSession(token, fault, scope)
  }

  limitSession(
    token: string,
    limit: { requests?: number | undefined; ms?: number | undefined },
    scope: string | null = null,
  ): void {
    this.matcher.limitSession(token, limit, scope)
  }

  onSessionFault(listener: (token: string, fault: SessionFault) => void): void {
    this.matcher.onSessionFault(listener)
  }

  sessionFaultList(): { token: string; fault: SessionFault; scope: string | null }[] {
    return this.matcher.sessionFaultList()
  }

  /**
   * Calls `listener` each time a rule fires, the moment the layer decides (before a delayed answer
   * leaves): a test can wait for a call to have reached the layer. Answers the unsubscribe.
   */
  onFiring(listener: (rule: Firing['rule']) => void): () => void {
    this.firingListeners.add(listener)
    return () => this.firingListeners.delete(listener)
  }

  setScenario(scope: string | null, name: string): void {
    this.scenarios.set(scope, name)
  }

  scenarioOf(scope: string | null): string | null {
    return this.scenarios.get(scope) ?? null
  }

  /** The active scenario of each scope, as shared between processes. */
  scenarioEntries(): [string | null, string][] {
    return [...this.scenarios]
  }

  loadScenarios(entries: readonly [string | null, string][]): void {
    this.scenarios.clear()
    for (const [scope, name] of entries) this.scenarios.set(scope, name)
  }

  /** Scopes that have rules, a clock or a scenario. */
  scopes(): {
    scope: string
    clock: ReturnType<EmuClock['state']> | null
    scenario: string | null
    rules: number
  }[] {
    const names = new Set<string>()
    for (const r of this.rules.list()) if (r.scope !== undefined) names.add(r.scope)
    for (const { scope } of this.clock.scopeStates()) names.add(scope)
    for (const s of this.scenarios.keys()) if (s !== null) names.add(s)
    return [...names].sort().map((scope) => ({
      scope,
      clock: this.clock.scopeClock(scope)?.state() ?? null,
      scenario: this.scenarios.get(scope) ?? null,
      rules: this.rules.list(scope).length,
    }))
  }

  /**
   * Everything back to no faults (rules, session faults, scope clocks, scenarios, journal), or
   * only what one scope set up. The data and the world clock are the caller's business.
   */
  reset(scope?: string): void {
    this.rules.clear(scope)
    this.journal?.clear(scope)
    if (scope === undefined) this.recorders.clear()
    else this.recorders.delete(scope)
    if (scope === undefined) {
      this.matcher.clearSessions()
      this.streamGaps.clear()
      this.scenarios.clear()
      this.clock.dropScope()
      return
    }
    this.clearSetup(scope)
    this.clock.dropScope(scope)
  }

  /**
   * What a scenario replaces: one scope's rules, session faults and scenario (`null`: the
   * unscoped ones). Clocks and the journal stay.
   */
  clearSetup(scope: string | null): void {
    this.rules.clear(scope)
    this.matcher.clearSessions(scope)
    this.scenarios.delete(scope)
    this.streamGaps.delete(scope)
  }

  /**
   * streamRoutes' `faults` option, in either mode: each stream's events pass through a tap that
   * carries out the stream action fired on its opening (if any) and notes the events in the journal.
   */
  readonly streamFaults: StreamFaultHook = (request, outlet) => {
    const scope = FaultLayer.scopeOf(request)
    const reconnect = headerValue(request.headers[LAST_EVENT_ID_HEADER]) !== null
    const gap = reconnect && this.streamGaps.delete(scope)
    const fault = request.streamFault
    const entry = request.journalEntry
    if (!fault && !entry && !gap) return null
    return new StreamFaultTap(outlet, { fault, entry, gap, onSkip: () => this.streamGaps.add(scope) })
  }

  /** Sockets left hanging are closed when the server shuts down. */
  closeHung(): void {
    this.actions.closeHung()
  }

  /**
   * The fault-layer decision for one /api request, taken synchronously: undefined lets it through,
   * `true` means the layer answered it or took the connection over (nothing further may run), and a
   * promise lets it through once a delay is over.
   */
  handle(request: FastifyRequest, reply: FastifyReply): Verdict {
    const token = headerValue(request.headers[TOKEN_HEADER])
    const header = headerValue(request.headers[SCOPE_HEADER])
    const scope = header ?? token
    const now = this.clock.nowFor(scope)
    const internal = this.access.isInternal(request)
    let entry: JournalRecord | null = null
    if (this.journal && !internal) {
      const scopeKey = header ?? (token ? tokenKey(token) : null)
      entry = this.journal.open({
        at: Date.now(),
        clock: now,
        method: request.method,
        url: request.url,
        scope: scopeKey,
        scopeKey,
        headers: request.headers,
      })
    }
    if (entry) this.track(entry, request, reply)
    if (internal) return
    if (this.shared) return this.handleShared(this.shared, request, reply, token, scope, now, entry)

    const verdict = this.matcher.sessionVerdict(token, scope, now)
    if (verdict) return this.answerSession(verdict, request, reply, entry)
    const facts = this.matcher.facts(request, scope, now)
    if (hasBody(request) && this.rules.needsBody(facts)) {
      // A rule tests body fields: decide once the body is read (decideWithBody, from preParsing).
      request.faultFacts = facts
      return
    }
    return this.fire(this.matcher.decide(facts), request, reply, entry)
  }

  private answerSession(
    verdict: SessionFault,
    request: FastifyRequest,
    reply: FastifyReply,
    entry: JournalRecord | null,
  ): true {
    request.faultNote = `session:${verdict}`
    if (entry) entry.fault = { kind: 'session', ruleId: null, label: null, action: verdict }
    if (verdict === 'expire') {
      reply.code(200).send({ code: CODE.sessionExpired, msg: MSG.sessionExpired, data: null })
    } else {
      reply.code(401).send({ code: CODE.sessionUnauthorized, msg: MSG.sessionExpired, data: null })
    }
    return true
  }

  /**
   * `handle` when the set-up is shared between processes: what counts across them (an `any`
   * session fault, a session's limit in requests, a counted rule) is claimed in Redis first, so
   * the decision may be a promise; what the replica can decide alone is decided at once.
   */
  private handleShared(
    shared: SharedDecisions,
    request: FastifyRequest,
    reply: FastifyReply,
    token: string | null,
    scope: string | null,
    now: number,
    entry: JournalRecord | null,
  ): Verdict {
    const afterSession = (verdict: SessionFault | null): Verdict => {
      if (verdict) return this.answerSession(verdict, request, reply, entry)
      const facts = this.matcher.facts(request, scope, now)
      if (hasBody(request) && this.rules.needsBody(facts)) {
        request.faultFacts = facts
        return
      }
      return this.decideShared(shared, facts, request, reply, entry)
    }
    const plan = this.matcher.sessionPlan(token, scope, now)
    if ('verdict' in plan) return afterSession(plan.verdict)
    const { claim } = plan
    return shared
      .claimSession(claim)
      .then((taken) => afterSession(this.matcher.sessionClaimed(claim.token, now, taken)))
  }

  /** The rules' part of a shared decision: at once when no counted rule matches, else claimed in Redis. */
  private decideShared(
    shared: SharedDecisions,
    facts: RequestFacts,
    request: FastifyRequest,
    reply: FastifyReply,
    entry: JournalRecord | null,
  ): Verdict {
    const candidates = this.rules.candidates(facts)
    if (candidates.length === 0) return
    if (!candidates.some((c) => c.counted)) {
      const firing = RuleStore.decideUncounted(candidates, facts.now)
      shared.count(candidates, firing)
      return this.fire(firing && this.matcher.fill(firing, facts), request, reply, entry)
    }
    return shared
      .decide(candidates, facts)
      .then((firing) => this.fire(firing && this.matcher.fill(firing, facts), request, reply, entry))
  }

  /**
   * preParsing, for a request whose decision waits for its body: reads it whole (up to `limit`
   * bytes), decides, and hands the body on — to the emulator's parser or to the upstream —
   * unless the layer answered.
   */
  async decideWithBody(
    request: FastifyRequest,
    reply: FastifyReply,
    payload: Readable,
    limit: number,
  ): Promise<{ verdict: Verdict; body: Readable }> {
    // faultFacts stays set: it tells the route that the session check waited for this decision
    // (server/http/contract-route.ts checks it in preValidation when the rule lets the call through).
    const facts = request.faultFacts
    const bytes = await readAll(payload, limit)
    const entry = request.journalEntry
    if (entry) this.journal?.setRequestBody(entry, bytes)
    const body = Object.assign(Readable.from([bytes]), { receivedEncodedLength: bytes.length })
    if (!facts) return { verdict: undefined, body }
    const type = request.headers['content-type']
    const withBody = this.matcher.withBody(facts, bytes, type)
    if (this.shared) return { verdict: this.decideShared(this.shared, withBody, request, reply, entry), body }
    return { verdict: this.fire(this.matcher.decide(withBody), request, reply, entry), body }
  }

  private fire(
    firing: Firing | null,
    request: FastifyRequest,
    reply: FastifyReply,
    entry: JournalRecord | null,
  ): Verdict {
    if (!firing) return
    request.faultNote = `rule:${firing.rule.id}`
    for (const listener of this.firingListeners) listener(firing.rule)
    if (entry) {
      entry.fault = {
        kind: 'rule',
        ruleId: firing.rule.id,
        label: firing.rule.label ?? null,
        action: firing.action.type,
      }
    }
    return this.actions.apply(firing, request, reply, entry)
  }

  /** Completes the journal entry when the connection is done with the request, however that happens. */
  private track(entry: JournalRecord, request: FastifyRequest, reply: FastifyReply): void {
    const started = performance.now()
    const done = () => {
      entry.durationMs = Math.round((performance.now() - started) * 10) / 10
      if (reply.raw.headersSent) entry.status = reply.raw.statusCode
      if (entry.outcome === 'pending') entry.outcome = reply.raw.writableFinished ? 'answered' : 'aborted'
      if (request.truncateReply) entry.outcome = 'truncated'
    }
    request.journalEntry = entry
    // The response's close comes after every ending (answered, aborted, taken over by a fault), and
    // under inject too: the one place an entry is completed. `on`, not `once` (which wraps done):
    // the listener goes with the response.
    reply.raw.on('close', done)
  }

  /**
   * onSend: reads the envelope code for the journal, and carries out `truncate`. Synchronous except
   * for `truncate`, whose payload may have to be read first.
   */
  onSend(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
    if (this.recorders.size > 0 && request.faultNote === null) this.record(request, reply, payload)
    const shape = request.shapeReply
    if (shape) {
      return toBuffer(payload).then((body) => {
        const entry = request.journalEntry
        if (entry) this.journal?.setResponse(entry, reply.getHeaders(), body, body.length, true)
        return shapeAnswer(shape, body, reply, this.actions.timers)
      })
    }
    if (request.truncateReply) {
      if (request.journalEntry) request.journalEntry.outcome = 'truncated'
      return FaultActions.truncate(payload, reply)
    }
    const entry = request.journalEntry
    if (!entry) return payload
    if (typeof payload === 'string' || Buffer.isBuffer(payload)) {
      // Kept as sent: no copy, and its code is read only when someone reads the journal.
      const bytes = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length
      this.journal?.setResponse(entry, reply.getHeaders(), payload, bytes, true)
      return payload
    }
    if (payload instanceof Readable) {
      const json = isJson(reply.getHeader('content-type'))
      return tapBody(payload, (kept, bytes) => {
        this.journal?.setResponse(entry, reply.getHeaders(), kept, bytes, json && bytes <= TAP_LIMIT)
      })
    }
    this.journal?.setResponse(entry, reply.getHeaders(), null, 0)
    return payload
  }

  /** Hands an answer nobody faked to the recording of its scope (or the unscoped one), if it wants it. */
  private record(request: FastifyRequest, reply: FastifyReply, payload: unknown): void {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return
    const scope = FaultLayer.scopeOf(request)
    const recorder = (scope === null ? undefined : this.recorders.get(scope)) ?? this.recorders.get(null)
    if (!recorder?.wants(request.method, request.url, request.headers)) return
    const type = reply.getHeader('content-type')
    recorder.add(
      request.method,
      request.url,
      reply.statusCode,
      typeof type === 'string' ? type : undefined,
      typeof payload === 'string' ? Buffer.from(payload) : payload,
    )
  }

  /**
   * preParsing: keeps the first bytes of the request's body for the journal while passing every
   * byte on unchanged, to the emulator's parser or to the upstream.
   */
  tapRequestBody(request: FastifyRequest, payload: Readable): Readable {
    const entry = request.journalEntry
    const journal = this.journal
    if (!entry || !journal || !hasBody(request)) return payload
    return tapBody(payload, (kept, bytes) => journal.setRequestBody(entry, kept, bytes), BODY_KEEP)
  }
}

const isJson = (type: unknown): boolean => typeof type === 'string' && type.includes('json')

/** Passes a streamed body through unchanged while keeping its first `keep` bytes; `onEnd` gets them and the total. */
function tapBody(
  source: Readable,
  onEnd: (kept: Buffer, bytes: number) => void,
  keep: number = TAP_LIMIT,
): Readable & { receivedEncodedLength?: number } {
  const kept: Buffer[] = []
  let keptBytes = 0
  let bytes = 0
  const tap: Transform & { receivedEncodedLength?: number } = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      bytes += chunk.length
      tap.receivedEncodedLength = bytes
      if (keptBytes < keep) {
        const part = chunk.length > keep - keptBytes ? chunk.subarray(0, keep - keptBytes) : chunk
        kept.push(part)
        keptBytes += part.length
      }
      cb(null, chunk)
    },
    flush(cb) {
      onEnd(Buffer.concat(kept), bytes)
      cb()
    },
  })
  source.on('error', (err) => tap.destroy(err))
  return source.pipe(tap)
}

const hasBody = (request: FastifyRequest): boolean => {
  const length = request.headers['content-length']
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined
}

/** A request body, whole; past `limit` bytes, the error Fastify gives for a body too large. */
async function readAll(payload: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of payload) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer)
    size += buf.length
    if (size > limit) {
      payload.destroy()
      throw Object.assign(new Error('Request body is too large'), {
        statusCode: 413,
        code: 'FST_ERR_CTP_BODY_TOO_LARGE',
      })
    }
    chunks.push(buf)
  }
  return Buffer.concat(chunks)
}
