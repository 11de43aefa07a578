import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import { Readable } from 'node:stream'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { SCOPE_HEADER, TOKEN_HEADER } from '../../shared/constants'
import type { FaultAction } from '../../shared/emu-control'
import { CODE } from '../../shared/envelope'
import { MSG } from '../../shared/messages'
import type { EmuClock } from '../emulator/clock'
import { type Firing, RuleStore } from './rule-store'

export type SessionFault = 'expire' | 'revoke'

interface SessionLimit {
  /** Requests still allowed; the one after the last gets 10001. */
  requestsLeft?: number
  /** Emulator-clock time from which the session counts as expired. */
  expiresAt?: number
}

type SessionListener = (token: string, fault: SessionFault) => void

const MALFORMED_BODY =
  '<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>'

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * The layer in front of /api in both modes. It decides per request (rules and session faults)
 * and carries out the decision on the real socket.
 */
export class FaultLayer {
  readonly rules = new RuleStore()
  private readonly sessionFaults = new Map<string, SessionFault>()
  private readonly sessionLimits = new Map<string, SessionLimit>()
  private readonly hung = new Set<Socket>()
  private readonly sessionListeners = new Set<SessionListener>()

  constructor(private readonly clock: EmuClock) {}

  static scopeOf(request: FastifyRequest): string | null {
    const scope = request.headers[SCOPE_HEADER]
    if (typeof scope === 'string' && scope) return scope
    const token = request.headers[TOKEN_HEADER]
    return typeof token === 'string' && token ? token : null
  }

  /** The next call with this token gets body code 10001 (expire) or HTTP 401 (revoke), and so does every later one. */
  failSession(token: string, fault: SessionFault): void {
    this.sessionFaults.set(token, fault)
    for (const l of this.sessionListeners) l(token, fault)
  }

  /** Ends a session after a number of further requests or after ms of emulator time. */
  limitSession(token: string, limit: { requests?: number | undefined; ms?: number | undefined }): void {
    const entry: SessionLimit = {}
    if (limit.requests !== undefined) entry.requestsLeft = limit.requests
    if (limit.ms !== undefined) entry.expiresAt = this.clock.now() + limit.ms
    this.sessionLimits.set(token, entry)
  }

  onSessionFault(listener: SessionListener): void {
    this.sessionListeners.add(listener)
  }

  sessionFaultList(): { token: string; fault: SessionFault }[] {
    return [...this.sessionFaults].map(([token, fault]) => ({ token, fault }))
  }

  /** Clears rules and session faults, everywhere or for one scope. */
  reset(scope?: string): void {
    this.rules.clear(scope)
    if (scope === undefined) {
      this.sessionFaults.clear()
      this.sessionLimits.clear()
    } else {
      this.sessionFaults.delete(scope)
      this.sessionLimits.delete(scope)
    }
  }

  /** Sockets left hanging are closed when the server shuts down. */
  closeHung(): void {
    for (const s of this.hung) s.destroy()
    this.hung.clear()
  }

  /** The session part of the decision: a failed session answers before any rule. */
  private sessionVerdict(token: string | null): SessionFault | null {
    if (!token) return null
    const fault = this.sessionFaults.get(token)
    if (fault) return fault
    const limit = this.sessionLimits.get(token)
    if (!limit) return null
    let expired = limit.expiresAt !== undefined && this.clock.now() >= limit.expiresAt
    if (!expired && limit.requestsLeft !== undefined) {
      if (limit.requestsLeft <= 0) expired = true
      else limit.requestsLeft--
    }
    if (!expired) return null
    this.sessionLimits.delete(token)
    this.failSession(token, 'expire')
    return 'expire'
  }

  /** The fault-layer hook: answers, stalls or breaks the request, or lets it through. */
  async handle(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const rawToken = request.headers[TOKEN_HEADER]
    const token = typeof rawToken === 'string' && rawToken ? rawToken : null
    const verdict = this.sessionVerdict(token)
    if (verdict === 'expire') {
      request.faultNote = 'session:expire'
      reply.code(200).send({ code: CODE.sessionExpired, msg: MSG.sessionExpired, data: null })
      return reply
    }
    if (verdict === 'revoke') {
      request.faultNote = 'session:revoke'
      reply.code(401).send({ code: CODE.sessionUnauthorized, msg: MSG.sessionExpired, data: null })
      return reply
    }
    const q = request.url.indexOf('?')
    const firing = this.rules.decide({
      method: request.method,
      path: q < 0 ? request.url : request.url.slice(0, q),
      scope: FaultLayer.scopeOf(request),
      now: this.clock.now(),
    })
    if (!firing) return
    request.faultNote = `rule:${firing.rule.id}`
    return this.apply(firing, request, reply)
  }

  private async apply({ action }: Firing, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    switch (action.type) {
      case 'envelope': {
        const body: Record<string, unknown> = { code: action.code }
        if (action.msg !== undefined) body.msg = action.msg
        if (action.message !== undefined) body.message = action.message
        body.data = action.data ?? null
        reply.code(200).send(body)
        return reply
      }
      case 'status': {
        if (action.headers) reply.headers(action.headers)
        const body = action.body ?? {
          code: action.status,
          msg: STATUS_CODES[action.status] ?? 'Error',
          data: null,
        }
        reply.code(action.status)
        if (typeof body === 'string') reply.type('text/plain; charset=utf-8')
        reply.send(body)
        return reply
      }
      case 'delay':
        await sleep(delayMs(action))
        return
      case 'hang': {
        reply.hijack()
        const socket = request.raw.socket
        this.hung.add(socket)
        socket.once('close', () => this.hung.delete(socket))
        return
      }
      case 'reset':
        reply.hijack()
        request.raw.socket.resetAndDestroy()
        return
      case 'empty':
        reply.hijack()
        request.raw.socket.destroy()
        return
      case 'malformed':
        reply.code(200).type('application/json; charset=utf-8').send(MALFORMED_BODY)
        return reply
      case 'truncate':
        request.truncateReply = true
        return
    }
  }

  /** onSend half of `truncate`: the full length is announced, half the bytes are sent, then the connection drops. */
  static async truncate(payload: unknown, reply: FastifyReply): Promise<Readable> {
    const full = await toBuffer(payload)
    reply.header('content-length', full.length)
    const half = full.subarray(0, Math.floor(full.length / 2))
    return new Readable({
      read() {
        this.push(half)
        setImmediate(() => this.destroy(new Error('body truncated by the fault layer')))
      },
    })
  }
}

function delayMs(action: Extract<FaultAction, { type: 'delay' }>): number {
  if (action.ms !== undefined) return action.ms
  const min = action.minMs ?? 0
  const max = Math.max(min, action.maxMs ?? min)
  return min + Math.floor(Math.random() * (max - min + 1))
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
