import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Socket } from 'node:net'
import { Readable, Transform } from 'node:stream'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { SCOPE_HEADER, TOKEN_HEADER } from '../../shared/constants'
import { ADMIN_TOKEN_HEADER, ANY_SESSION, type FaultAction } from '../../shared/emu-control'
import { CODE } from '../../shared/envelope'
import { MSG, SERVER_MSG } from '../../shared/messages'
import type { EmuClock } from '../emulator/clock'
import { BODY_KEEP, Journal, type JournalRecord, tokenKey } from './journal'
import type { Recorder } from './recorder'
import { bodyFields, type Fields, headerFields, queryFields } from './request-fields'
import { type Firing, type RequestFacts, RuleStore } from './rule-store'

export type SessionFault = 'expire' | 'revoke'

/** See FaultLayer.handle. */
export type Verdict = undefined | true | Promise<void>

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

/** Header that marks the calls the server makes to itself (scenario steps): the layer lets them by. */
export const INTERNAL_HEADER = 'x-emu-internal'

const MALFORMED_BODY =
  '<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>'

/** Bytes of a streamed answer kept to read its envelope code for the journal. */
const TAP_LIMIT = 64 * 1024

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

const headerValue = (v: string | string[] | undefined): string | null =>
  typeof v === 'string' && v !== '' ? v : null

/**
 * The layer in front of /api in both modes. It decides per request (session faults, then rules,
 * each in the request's scope and on its scope's clock), carries the decision out on the real
 * socket, and writes the journal.
 */
export class FaultLayer {
  readonly rules = new RuleStore()
  journal: Journal | null = null
  /** Proves a request came from the server itself; new at every start, never sent anywhere else. */
  readonly internalKey = randomBytes(16).toString('hex')
  private readonly sessionFaults = new Map<string, { fault: SessionFault; scope: string | null }>()
  private readonly sessionLimits = new Map<string, SessionLimit & { scope: string | null }>()
  private readonly pendingAny: PendingAny[] = []
  private readonly scenarios = new Map<string | null, string>()
  private readonly hung = new Set<Socket>()
  /** Recordings in progress, by scope (null: every call). */
  readonly recorders = new Map<string | null, Recorder>()
  private readonly sessionListeners = new Set<SessionListener>()

  private adminToken: string | undefined

  constructor(private readonly clock: EmuClock) {}

  /** From now on every /__emu call must carry this token (none: the API is open). */
  requireAdminToken(token: string | undefined): void {
    this.adminToken = token
  }

  /** The guard of /__emu: 401 without the admin token, 403 with a wrong one, nothing when it matches. */
  checkAdmin(request: FastifyRequest, reply: FastifyReply): FastifyReply | undefined {
    if (this.adminToken === undefined) return
    const given = request.headers[ADMIN_TOKEN_HEADER]
    if (given === undefined) {
      return reply.code(401).send({ code: 401, msg: `缺少 ${ADMIN_TOKEN_HEADER}`, data: null })
    }
    if (!adminTokenMatches(given, this.adminToken)) {
      return reply.code(403).send({ code: 403, msg: `${ADMIN_TOKEN_HEADER} 不正确`, data: null })
    }
  }

  /** x-emu-scope, else the session token, else null (global). */
  static scopeOf(request: FastifyRequest): string | null {
    return headerValue(request.headers[SCOPE_HEADER]) ?? headerValue(request.headers[TOKEN_HEADER])
  }

  /** Keeps a journal of the last `capacity` requests from now on (0: none). */
  enableJournal(capacity: number): void {
    this.journal = capacity > 0 ? new Journal(capacity) : null
  }

  /** A call the server made to itself; the marker is removed so it never travels upstream. */
  isInternal(request: FastifyRequest): boolean {
    const marked = request.headers[INTERNAL_HEADER]
    if (marked === undefined) return false
    delete request.headers[INTERNAL_HEADER]
    return marked === this.internalKey
  }

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

  setScenario(scope: string | null, name: string): void {
    this.scenarios.set(scope, name)
  }

  scenarioOf(scope: string | null): string | null {
    return this.scenarios.get(scope) ?? null
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
      this.sessionFaults.clear()
      this.sessionLimits.clear()
      this.pendingAny.length = 0
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
    for (const [token, v] of this.sessionFaults) {
      if (v.scope === scope || (scope !== null && token === scope)) this.sessionFaults.delete(token)
    }
    for (const [token, v] of this.sessionLimits) {
      if (v.scope === scope || (scope !== null && token === scope)) this.sessionLimits.delete(token)
    }
    for (let i = this.pendingAny.length - 1; i >= 0; i--) {
      if (this.pendingAny[i]?.scope === scope) this.pendingAny.splice(i, 1)
    }
    this.scenarios.delete(scope)
  }

  /** Sockets left hanging are closed when the server shuts down. */
  closeHung(): void {
    for (const s of this.hung) s.destroy()
    this.hung.clear()
  }

  /** The session part of the decision: a failed session answers before any rule. */
  private sessionVerdict(token: string | null, scope: string | null, now: number): SessionFault | null {
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
    const internal = this.isInternal(request)
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

    const verdict = this.sessionVerdict(token, scope, now)
    if (verdict) {
      request.faultNote = `session:${verdict}`
      if (entry) entry.fault = { kind: 'session', ruleId: null, label: null, action: verdict }
      if (verdict === 'expire') {
        reply.code(200).send({ code: CODE.sessionExpired, msg: MSG.sessionExpired, data: null })
      } else {
        reply.code(401).send({ code: CODE.sessionUnauthorized, msg: MSG.sessionExpired, data: null })
      }
      return true
    }
    const facts = this.facts(request, scope, now)
    if (hasBody(request) && this.rules.needsBody(facts)) {
      // A rule tests body fields: decide once the body is read (decideWithBody, from preParsing).
      request.faultFacts = facts
      return
    }
    return this.fire(this.rules.decide(facts), facts, request, reply, entry)
  }

  private facts(request: FastifyRequest, scope: string | null, now: number): RequestFacts {
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
    const facts = request.faultFacts
    request.faultFacts = null
    const bytes = await readAll(payload, limit)
    const entry = request.journalEntry
    if (entry) this.journal?.setRequestBody(entry, bytes)
    const body = Object.assign(Readable.from([bytes]), { receivedEncodedLength: bytes.length })
    if (!facts) return { verdict: undefined, body }
    const type = request.headers['content-type']
    const withBody = { ...facts, body: () => bodyFields(bytes, type) }
    return { verdict: this.fire(this.rules.decide(withBody), withBody, request, reply, entry), body }
  }

  private fire(
    firing: Firing | null,
    facts: RequestFacts,
    request: FastifyRequest,
    reply: FastifyReply,
    entry: JournalRecord | null,
  ): Verdict {
    if (!firing) return
    request.faultNote = `rule:${firing.rule.id}`
    if (entry) {
      entry.fault = {
        kind: 'rule',
        ruleId: firing.rule.id,
        label: firing.rule.label ?? null,
        action: firing.action.type,
      }
    }
    const action = templated(firing, facts)
    return this.apply({ ...firing, action }, request, reply, entry)
  }

  /** Completes the journal entry when the connection is done with the request, however that happens. */
  private track(entry: JournalRecord, request: FastifyRequest, reply: FastifyReply): void {
    const started = performance.now()
    const done = () => {
      if (entry.durationMs !== null) return
      entry.durationMs = Math.round((performance.now() - started) * 10) / 10
      if (reply.raw.headersSent) entry.status = reply.raw.statusCode
      if (entry.outcome === 'pending') entry.outcome = reply.raw.writableFinished ? 'answered' : 'aborted'
      if (request.truncateReply) entry.outcome = 'truncated'
    }
    request.journalEntry = entry
    request.journalDone = done
    // `on`, not `once`: done is idempotent, and the listener goes with the response.
    reply.raw.on('close', done)
  }

  private apply(
    { action, random }: Firing,
    request: FastifyRequest,
    reply: FastifyReply,
    entry: JournalRecord | null,
  ): Verdict {
    switch (action.type) {
      case 'envelope': {
        const body: Record<string, unknown> = { code: action.code }
        if (action.msg !== undefined) body.msg = action.msg
        if (action.message !== undefined) body.message = action.message
        body.data = action.data ?? null
        reply.code(200).send(body)
        return true
      }
      case 'status': {
        if (action.headers) reply.headers(action.headers)
        const body = action.body ?? { code: action.status, msg: statusMessage(action.status), data: null }
        reply.code(action.status)
        if (typeof body === 'string') reply.type('text/plain; charset=utf-8')
        reply.send(body)
        return true
      }
      case 'delay':
        return sleep(delayMs(action, random))
      case 'hang': {
        if (entry) entry.outcome = 'hang'
        reply.hijack()
        const socket = request.raw.socket
        this.hung.add(socket)
        socket.once('close', () => this.hung.delete(socket))
        return true
      }
      case 'reset': {
        if (entry) entry.outcome = 'reset'
        reply.hijack()
        const socket = request.raw.socket
        if (action.after === 'head') {
          // A status line and headers announcing a body, part of it, then the reset: bytes of an
          // answer arrived, so the browser reports the failure instead of retrying.
          socket.write(
            'HTTP/1.1 200 OK\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: 64\r\n\r\n{"code":',
            () => setTimeout(() => socket.resetAndDestroy(), 20),
          )
        } else socket.resetAndDestroy()
        return true
      }
      case 'timeout': {
        if (entry) entry.outcome = 'timeout'
        reply.hijack()
        const socket = request.raw.socket
        this.hung.add(socket)
        const timer = setTimeout(() => socket.destroy(), action.ms)
        socket.once('close', () => {
          clearTimeout(timer)
          this.hung.delete(socket)
        })
        return true
      }
      case 'latency': {
        const jitter = action.jitterMs ?? 0
        const ms = Math.max(0, action.ms + Math.round((random() * 2 - 1) * jitter))
        return sleep(ms)
      }
      case 'bandwidth':
      case 'slicer':
      case 'slowClose':
        request.shapeReply = action
        return undefined
      case 'empty':
        if (entry) entry.outcome = 'empty'
        reply.hijack()
        request.raw.socket.destroy()
        return true
      case 'malformed':
        reply
          .code(200)
          .type('application/json; charset=utf-8')
          .send(action.body ?? MALFORMED_BODY)
        return true
      case 'truncate':
        request.truncateReply = true
        return undefined
    }
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
        if (entry) {
          entry.code = envelopeCode(body)
          this.journal?.setResponse(entry, reply.getHeaders(), body, body.length)
        }
        return shapeAnswer(shape, body, reply)
      })
    }
    if (request.truncateReply) {
      if (request.journalEntry) request.journalEntry.outcome = 'truncated'
      return FaultLayer.truncate(payload, reply)
    }
    const entry = request.journalEntry
    if (!entry) return payload
    if (typeof payload === 'string' || Buffer.isBuffer(payload)) {
      entry.code = envelopeCode(payload)
      const body = typeof payload === 'string' ? Buffer.from(payload) : payload
      this.journal?.setResponse(entry, reply.getHeaders(), body, body.length)
      return payload
    }
    if (payload instanceof Readable) {
      const json = isJson(reply.getHeader('content-type'))
      return tapBody(payload, (kept, bytes) => {
        if (json) entry.code = bytes <= TAP_LIMIT ? envelopeCode(kept) : null
        this.journal?.setResponse(entry, reply.getHeaders(), kept, bytes)
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

  /**
   * onSend half of `truncate`: the full length is announced, half the bytes are sent, then the
   * connection is closed (after those bytes are flushed), so the client sees a body cut short.
   */
  static async truncate(payload: unknown, reply: FastifyReply): Promise<Readable> {
    const full = await toBuffer(payload)
    reply.header('content-length', full.length)
    reply.removeHeader('transfer-encoding')
    const half = full.subarray(0, Math.floor(full.length / 2))
    reply.header('connection', 'close')
    const res = reply.raw
    // Once the head and the half are queued on the socket, end it there: end() flushes them first.
    const cut = () => {
      const socket = res.socket
      if (!socket || socket.destroyed) return
      if (res.headersSent) socket.end(() => socket.destroy())
      else setImmediate(cut)
    }
    let pushed = false
    return new Readable({
      read() {
        if (pushed) return
        pushed = true
        this.push(half)
        setImmediate(cut)
      },
    })
  }
}

/** The message of a `status` fault without a body: what the app would show for that status. */
export function statusMessage(status: number): string {
  if (status === 401 || status === 403) return MSG.sessionExpired
  if (status === 404) return SERVER_MSG.notFound
  if (status === 413) return SERVER_MSG.payloadTooLarge
  if (status === 429) return SERVER_MSG.rateLimited
  if (status === 400 || status === 422) return SERVER_MSG.invalidInput
  if (status >= 500) return SERVER_MSG.internal
  return MSG.requestFailed
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

export type ShapeAction = Extract<FaultAction, { type: 'bandwidth' | 'slicer' | 'slowClose' }>

/**
 * The answer's bytes, sent the way the action says: at a bandwidth, in slices, or whole with its
 * end held back. The head goes out at once; for bandwidth and slicer it announces the full length.
 */
export function shapeAnswer(action: ShapeAction, body: Buffer, reply: FastifyReply): Readable {
  reply.removeHeader('transfer-encoding')
  let chunks: Buffer[]
  let gapMs: number
  let holdMs = 0
  if (action.type === 'slowClose') {
    // No length: the body ends only when the stream does, so the client waits for the close.
    reply.removeHeader('content-length')
    chunks = [body]
    gapMs = 0
    holdMs = action.ms
  } else {
    reply.header('content-length', body.length)
    const size =
      action.type === 'slicer' ? action.chunkBytes : Math.max(1, Math.floor(action.bytesPerSecond / 10))
    gapMs = action.type === 'slicer' ? action.delayMs : Math.round((size / action.bytesPerSecond) * 1000)
    chunks = []
    for (let i = 0; i < body.length; i += size) chunks.push(body.subarray(i, i + size))
  }
  let i = 0
  let timer: NodeJS.Timeout | undefined
  return new Readable({
    read() {
      if (timer) return
      const next = chunks[i++]
      if (next === undefined) {
        timer = setTimeout(() => this.push(null), holdMs)
        return
      }
      const send = () => {
        timer = undefined
        this.push(next)
      }
      if (i === 1 || gapMs === 0) send()
      else timer = setTimeout(send, gapMs)
    },
    destroy(err, cb) {
      clearTimeout(timer)
      cb(err)
    },
  })
}

const digest = (s: string) => createHash('sha256').update(s).digest()

/** Constant-time: compares digests, so neither the length nor a prefix of the token leaks. */
export function adminTokenMatches(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false
  return timingSafeEqual(digest(given), digest(expected))
}

function delayMs(action: Extract<FaultAction, { type: 'delay' }>, random: () => number): number {
  if (action.ms !== undefined) return action.ms
  const min = action.minMs ?? 0
  const max = Math.max(min, action.maxMs ?? min)
  return min + Math.floor(random() * (max - min + 1))
}

const isJson = (type: unknown): boolean => typeof type === 'string' && type.includes('json')

/** The `code` of an envelope, or null when the body is not one. */
export function envelopeCode(body: string | Buffer): number | null {
  if (body.length === 0 || body.length > TAP_LIMIT) return null
  const text = typeof body === 'string' ? body : body.toString('utf8')
  try {
    const parsed: unknown = JSON.parse(text)
    if (parsed && typeof parsed === 'object' && 'code' in parsed && typeof parsed.code === 'number') {
      return Number.isInteger(parsed.code) ? parsed.code : null
    }
  } catch {
    // Not JSON: no code to record.
  }
  return null
}

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

async function toBuffer(payload: unknown): Promise<Buffer> {
  if (payload === null || payload === undefined) return Buffer.alloc(0)
  if (Buffer.isBuffer(payload)) return payload
  if (typeof payload === 'string') return Buffer.from(payload)
  if (payload instanceof Readable || (typeof payload === 'object' && Symbol.asyncIterator in payload)) {
    const chunks: Buffer[] = []
    for await (const chunk of payload as AsyncIterable<Buffer | string>) {
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)
    }
    return Buffer.concat(chunks)
  }
  return Buffer.from(JSON.stringify(payload))
}
