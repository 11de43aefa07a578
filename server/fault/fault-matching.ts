import { ANY_SESSION, type FaultAction } from '@shared/emu-control'
import type { FastifyRequest } from 'fastify'
import type { EmuClock } from '../emulator/clock'
import { tokenKey } from './journal'
import { bodyFields, type Fields, headerFields, queryFields } from './request-fields'
import { type Firing, type RequestFacts, RuleStore } from './rule-store'

export type SessionFault = 'expire' | 'revoke'

interface SessionLimit {
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
  scope: string | null
  fault?: SessionFault
  limit?: SessionLimitInput
}

type SessionListener = (token: string, fault: SessionFault) => void

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
      this.pendingAny.push({ scope, fault })
      return
    }
    this.sessionFaults.set(token, { fault, scope })
    for (const l of this.sessionListeners) l(token, fault)
  }

  /** Ends a session after a number of further requests or after ms on the scope's clock. */
  limitSession(token: string, limit: SessionLimitInput, scope: string | null = null): void {
    if (token === ANY_SESSION) {
      this.pendingAny.push({ scope, limit })
      return
    }
    const entry: SessionLimit & { scope: string | null } = { scope }
    if (limit.requests !== undefined) entry.requestsLeft = limit.requests
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
    return firing && { ...firing, action: templated(firing, facts) }
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
