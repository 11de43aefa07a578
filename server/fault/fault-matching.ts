import { randomUUID } from 'node:crypto'
import { ANY_SESSION, type FaultAction } from '@shared/emu-control'
import type { FastifyRequest } from 'fastify'
import type { EmuClock } from '../emulator/clock'
import { tokenKey } from './journal'
import { bodyFields, type Fields, headerFields, queryFields } from './request-fields'
import { type Firing, type RequestFacts, RuleStore } from './rule-store'

export type SessionFault = 'expire' | 'revoke'

interface SessionLimit {
  /** Names the limit in the shared state (./shared-faults.ts), where its requests are counted. */
  id: string
  /** Requests allowed in all, as given. */
  requests?: number
  /** Requests still allowed; the one after the last gets 10001. */
  requestsLeft?: number
  /** Emulator-clock time from which the session counts as expired. */
  expiresAt?: number
}

interface SessionLimitInput {
  requests?: number | undefined
  ms?: number | undefined
}

/** A session fault waiting for the next call in its scope that carries a token. */
interface PendingAny {
  /** Names it in the shared state, where the token that took it is kept. */
  id: string
  scope: string | null
  fault?: SessionFault
  limit?: SessionLimitInput
}

type SessionListener = (token: string, fault: SessionFault) => void

/** The session faults as shared between processes (./shared-faults.ts). */
export interface SessionSnapshot {
  faults: { token: string; fault: SessionFault; scope: string | null }[]
  limits: {
    token: string
    id: string
    scope: string | null
    requests?: number | undefined
    expiresAt?: number | undefined
  }[]
  pending: {
    id: string
    scope: string | null
    fault?: SessionFault | undefined
    limit?: SessionLimitInput | undefined
  }[]
}

/** What the shared state says a token took and used: `any` faults it took, and its limit's count. */
export interface SessionTaken {
  /** `any` faults this token took, with the time each was taken at (on its scope's clock). */
  readonly taken: readonly { id: string; at: number }[]
  /** The limit whose requests were counted, and how many it has counted with this one (-1: none). */
  readonly limit: string
  readonly used: number
}

/** What a process must claim in Redis before the session part of a decision (shared mode). */
export interface SessionClaim {
  readonly token: string
  /** `any` faults waiting for a call in this scope, in order, each with the time it would be taken at. */
  readonly pending: readonly { id: string; at: number; requests?: number | undefined }[]
  /** The token's limit in requests, if it has one. */
  readonly limit: { id: string; requests: number } | null
}

/**
 * Which fault applies to a request: the session faults first (a failed or limited session), then
 * the first rule of the request's scope that matches it, its stub filled in from the request.
 */
export class FaultMatcher {
  readonly rules = new RuleStore()
  private readonly sessionFaults = new Map<string, { fault: SessionFault; scope: string | null }>()
  private readonly sessionLimits = new Map<string, SessionLimit & { scope: string | null }>()
  private readonly pendingAny: PendingAny[] = []
  private readonly sessionListeners = new Set<SessionListener>()

  constructor(private readonly clock: EmuClock) {}

  /**
   * The next call with this token gets body code 10001 (expire) or HTTP 401 (revoke), and so
   * does every later one. `any`: the next call in the scope that carries a token, whichever.
   */
  failSession(token: string, fault: SessionFault, scope: string | null = null): void {
    if (token === ANY_SESSION) {
      this.pendingAny.push({ id: randomUUID(), scope, fault })
      return
    }
    this.sessionFaults.set(token, { fault, scope })
    for (const l of this.sessionListeners) l(token, fault)
  }

  /** Ends a session after a number of further requests or after ms on the scope's clock. */
  limitSession(token: string, limit: SessionLimitInput, scope: string | null = null): void {
    if (token === ANY_SESSION) {
      this.pendingAny.push({ id: randomUUID(), scope, limit })
      return
    }
    const entry: SessionLimit & { scope: string | null } = { id: randomUUID(), scope }
    if (limit.requests !== undefined) {
      entry.requests = limit.requests
      entry.requestsLeft = limit.requests
    }
    if (limit.ms !== undefined) entry.expiresAt = this.clock.nowFor(scope ?? token) + limit.ms
    this.sessionLimits.set(token, entry)
  }

  onSessionFault(listener: SessionListener): void {
    this.sessionListeners.add(listener)
  }

  /** Session faults in force; tokens shortened, since the list is shown. */
  sessionFaultList(): { token: string; fault: SessionFault; scope: string | null }[] {
    const shown = [...this.sessionFaults].map(([token, v]) => ({
      token: tokenKey(token),
      fault: v.fault,
      scope: v.scope,
    }))
    for (const p of this.pendingAny) {
      shown.push({ token: ANY_SESSION, fault: p.fault ?? 'expire', scope: p.scope })
    }
    return shown
  }

  /** Drops every session fault (none given), or those one scope set up (`null`: the unscoped ones). */
  clearSessions(scope?: string | null): void {
    if (scope === undefined) {
      this.sessionFaults.clear()
      this.sessionLimits.clear()
      this.pendingAny.length = 0
      return
    }
    for (const [token, v] of this.sessionFaults) {
      if (v.scope === scope || (scope !== null && token === scope)) this.sessionFaults.delete(token)
    }
    for (const [token, v] of this.sessionLimits) {
      if (v.scope === scope || (scope !== null && token === scope)) this.sessionLimits.delete(token)
    }
    for (let i = this.pendingAny.length - 1; i >= 0; i--) {
      if (this.pendingAny[i]?.scope === scope) this.pendingAny.splice(i, 1)
    }
  }

  /** The session part of the decision: a failed session answers before any rule. */
  sessionVerdict(token: string | null, scope: string | null, now: number): SessionFault | null {
    if (!token) return null
    if (this.pendingAny.length > 0) {
      const i = this.pendingAny.findIndex((p) => p.scope === null || p.scope === scope)
      const pending = this.pendingAny[i]
      if (pending) {
        this.pendingAny.splice(i, 1)
        if (pending.fault) this.failSession(token, pending.fault, pending.scope)
        if (pending.limit) this.limitSession(token, pending.limit, pending.scope)
      }
    }
    const failed = this.sessionFaults.get(token)
    if (failed) return failed.fault
    const limit = this.sessionLimits.get(token)
    if (!limit) return null
    let expired = limit.expiresAt !== undefined && now >= limit.expiresAt
    if (!expired && limit.requestsLeft !== undefined) {
      if (limit.requestsLeft <= 0) expired = true
      else limit.requestsLeft--
    }
    if (!expired) return null
    this.sessionLimits.delete(token)
    this.failSession(token, 'expire', limit.scope)
    return 'expire'
  }

  /** Every session fault, limit and `any` fault, as shared between processes. */
  sessionSnapshot(): SessionSnapshot {
    return {
      faults: [...this.sessionFaults].map(([token, v]) => ({ token, fault: v.fault, scope: v.scope })),
      limits: [...this.sessionLimits].map(([token, v]) => ({
        token,
        id: v.id,
        scope: v.scope,
        requests: v.requests,
        expiresAt: v.expiresAt,
      })),
      pending: this.pendingAny.map((p) => ({ ...p })),
    }
  }

  /**
   * Replaces the session faults with shared ones: `taken` says which token took each `any` fault
   * (and when), `used` how many requests each limit has counted.
   */
  loadSessions(
    snapshot: SessionSnapshot,
    taken: (id: string) => { token: string; at: number } | undefined,
    used: (limitId: string) => number,
  ): void {
    this.sessionFaults.clear()
    this.sessionLimits.clear()
    this.pendingAny.length = 0
    for (const f of snapshot.faults) this.sessionFaults.set(f.token, { fault: f.fault, scope: f.scope })
    for (const l of snapshot.limits) {
      this.sessionLimits.set(l.token, {
        id: l.id,
        scope: l.scope,
        ...(l.requests === undefined ? {} : { requests: l.requests }),
        ...(l.expiresAt === undefined ? {} : { expiresAt: l.expiresAt }),
      })
    }
    for (const p of snapshot.pending) {
      const by = taken(p.id)
      if (by) this.takePending({ ...p }, by.token, by.at)
      else this.pendingAny.push({ ...p })
    }
    for (const [token, limit] of [...this.sessionLimits]) {
      if (limit.requests === undefined) continue
      const count = used(limit.id)
      limit.requestsLeft = limit.requests - count
      if (count > limit.requests) {
        this.sessionLimits.delete(token)
        this.sessionFaults.set(token, { fault: 'expire', scope: limit.scope })
      }
    }
  }

  /** An `any` fault taken by a token: it becomes that token's, named by the same id. */
  private takePending(p: PendingAny, token: string, at: number): void {
    if (p.fault) this.sessionFaults.set(token, { fault: p.fault, scope: p.scope })
    if (p.limit) {
      const entry: SessionLimit & { scope: string | null } = { id: p.id, scope: p.scope }
      if (p.limit.requests !== undefined) {
        entry.requests = p.limit.requests
        entry.requestsLeft = p.limit.requests
      }
      if (p.limit.ms !== undefined) entry.expiresAt = at + p.limit.ms
      this.sessionLimits.set(token, entry)
    }
  }

  /**
   * Shared mode, the session part of a decision: the verdict when this replica can give it alone
   * (a failed session, a lifetime in ms), else what must first be claimed in Redis — an `any` fault
   * waiting in the scope, or the token's limit in requests (both count across processes).
   */
  sessionPlan(
    token: string | null,
    scope: string | null,
    now: number,
  ): { verdict: SessionFault | null } | { claim: SessionClaim } {
    if (!token) return { verdict: null }
    const pending = this.pendingAny
      .filter((p) => p.scope === null || p.scope === scope)
      .map((p) => ({ id: p.id, at: this.clock.nowFor(p.scope ?? token), requests: p.limit?.requests }))
    const limit = this.sessionLimits.get(token)
    const counted = limit?.requests !== undefined ? { id: limit.id, requests: limit.requests } : null
    if (pending.length > 0 || (counted && !this.failedOrOut(token, now))) {
      return { claim: { token, pending, limit: counted } }
    }
    return { verdict: this.sharedVerdict(token, now, null) }
  }

  /** Whether the token has failed already, or its lifetime in ms has run out: no count needed. */
  private failedOrOut(token: string, now: number): boolean {
    if (this.sessionFaults.has(token)) return true
    const at = this.sessionLimits.get(token)?.expiresAt
    return at !== undefined && now >= at
  }

  /** Shared mode: the session verdict once Redis has said what the token took and used. */
  sessionClaimed(token: string, now: number, claimed: SessionTaken | null): SessionFault | null {
    for (const t of claimed?.taken ?? []) {
      const i = this.pendingAny.findIndex((p) => p.id === t.id)
      const p = this.pendingAny[i]
      if (!p) continue
      this.pendingAny.splice(i, 1)
      this.takePending(p, token, t.at)
    }
    return this.sharedVerdict(token, now, claimed)
  }

  private sharedVerdict(token: string, now: number, claimed: SessionTaken | null): SessionFault | null {
    const failed = this.sessionFaults.get(token)
    if (failed) return failed.fault
    const limit = this.sessionLimits.get(token)
    if (!limit) return null
    let expired = limit.expiresAt !== undefined && now >= limit.expiresAt
    if (
      !expired &&
      limit.requests !== undefined &&
      claimed &&
      claimed.limit === limit.id &&
      claimed.used >= 0
    ) {
      limit.requestsLeft = limit.requests - claimed.used
      expired = claimed.used > limit.requests
    }
    if (!expired) return null
    this.sessionLimits.delete(token)
    this.failSession(token, 'expire', limit.scope)
    return 'expire'
  }

  facts(request: FastifyRequest, scope: string | null, now: number): RequestFacts {
    const url = request.url
    const q = url.indexOf('?')
    return {
      method: request.method,
      path: q < 0 ? url : url.slice(0, q),
      scope,
      now,
      query: () => queryFields(url),
      headers: () => headerFields(request.headers),
    }
  }

  /** The facts with the request's body, for a decision that waited for it. */
  withBody(facts: RequestFacts, bytes: Buffer, type: string | undefined): RequestFacts {
    return { ...facts, body: () => bodyFields(bytes, type) }
  }

  /** The rule that fires for these facts, its action filled in from the request; null when none does. */
  decide(facts: RequestFacts): Firing | null {
    const firing = this.rules.decide(facts)
    return firing && this.fill(firing, facts)
  }

  /** A firing with its action filled in from the request. */
  fill(firing: Firing, facts: RequestFacts): Firing {
    return { ...firing, action: templated(firing, facts) }
  }
}

/** A stub answer with `{{…}}` filled from the request, when its action asks for it. */
function templated(firing: Firing, facts: RequestFacts): FaultAction {
  const action = firing.action
  if (!('template' in action) || action.template !== true) return action
  let query: Fields | null = null
  let headers: Fields | null = null
  let body: Fields | null = null
  const value = (name: string): string | number | undefined => {
    if (name === 'counter') return firing.rule.fired
    if (name === 'now') return facts.now
    if (name === 'nowIso') return new Date(facts.now).toISOString()
    if (name === 'request.path') return facts.path
    if (name === 'request.method') return facts.method
    const m = /^request\.(query|headers|body)\.(.+)$/.exec(name)
    if (!m?.[2]) return undefined
    const part = m[1]
    let fields: Fields
    if (part === 'query') {
      query ??= facts.query?.() ?? new Map()
      fields = query
    } else if (part === 'headers') {
      headers ??= facts.headers?.() ?? new Map()
      fields = headers
    } else {
      body ??= facts.body?.() ?? new Map()
      fields = body
    }
    return fields.get(part === 'headers' ? m[2].toLowerCase() : m[2])?.[0]
  }
  const fill = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const whole = /^\{\{\s*(counter|now)\s*\}\}$/.exec(v)
      if (whole?.[1]) return value(whole[1])
      return v.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (all, name: string) => {
        const got = value(name)
        return got === undefined ? all : String(got)
      })
    }
    if (Array.isArray(v)) return v.map(fill)
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x)]))
    return v
  }
  if (action.type === 'envelope') {
    return {
      ...action,
      ...(action.msg === undefined ? {} : { msg: String(fill(action.msg)) }),
      ...(action.message === undefined ? {} : { message: String(fill(action.message)) }),
      data: fill(action.data ?? null),
    }
  }
  if (action.type === 'status') return { ...action, body: fill(action.body) }
  return action
}
