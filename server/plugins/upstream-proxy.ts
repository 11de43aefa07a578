import type { IncomingHttpHeaders } from 'node:http'
import { Readable } from 'node:stream'
import fastifyHttpProxy from '@fastify/http-proxy'
import type { Endpoint } from '@shared/contract/endpoint'
import { CODE } from '@shared/envelope'
import { SERVER_MSG } from '@shared/messages'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { type Dispatcher, Pool } from 'undici'
import { failure } from '../http/envelope'
import type { RateLimit } from '../http/rate-limits'
import type { Health } from '../ops/health'
import { type Metrics, statusClass } from '../ops/metrics'
import { REQUEST_ID_HEADER } from '../ops/request-id'
import { answerTranslator, encodeCall, fieldsOf } from '../upstream/adapted-call'
import type { Adapter } from '../upstream/adapter'
import { type ContractMonitor, contractEndpoint } from '../upstream/contract-monitor'
import { API_HEADERS } from './security'

/** Upstream answers up to this size are read whole and sent in one write; larger ones stream through. */
const WHOLE_BODY_LIMIT = 64 * 1024

/** Hop-by-hop headers (RFC 9110 §7.6.1): they describe one connection and are never forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'proxy-connection',
  'keep-alive',
  'te',
  'transfer-encoding',
  'upgrade',
])

/** Credentials for a proxy on the way, meant for that proxy only: never forwarded either way. */
const PROXY_CREDENTIALS = new Set(['proxy-authorization', 'proxy-authenticate'])

/**
 * Request headers the client may not pass to the upstream: claims about the client's address, scheme
 * and host (rebuilt from what TRUST_PROXY trusts, see upstreamHeaders) and the emulator's own x-emu-*
 * headers (a tester's scope, the admin token), which mean nothing upstream.
 */
const isClientClaim = (name: string) =>
  name.startsWith('x-forwarded-') ||
  name === 'x-real-ip' ||
  name === 'forwarded' ||
  name.startsWith('x-emu-') ||
  // Node has already answered the client's `Expect: 100-continue` (before the body was read), and the
  // body goes upstream whole: the upstream has nothing to wait for.
  name === 'expect' ||
  PROXY_CREDENTIALS.has(name)

type Headers = Record<string, string | string[] | undefined>

/**
 * The header names a Connection header lists, which are hop-by-hop too (RFC 9110 §7.6.1); null when
 * it lists none beyond those always dropped (the usual "keep-alive" or "close").
 */
function listedByConnection(value: string | string[] | undefined): Set<string> | null {
  if (value === undefined) return null
  const text = (typeof value === 'string' ? value : value.join(',')).toLowerCase()
  if (text === 'keep-alive' || text === 'close') return null
  const names = new Set<string>()
  for (const token of text.split(',')) {
    const name = token.trim()
    if (name.length > 0 && !HOP_BY_HOP.has(name)) names.add(name)
  }
  return names.size > 0 ? names : null
}

/** An upstream answer's end-to-end headers, with the rest kept as they came. */
function endToEnd(headers: Headers): Headers {
  const listed = listedByConnection(headers.connection)
  const out: Headers = {}
  for (const name in headers) {
    if (HOP_BY_HOP.has(name) || PROXY_CREDENTIALS.has(name) || listed?.has(name)) continue
    out[name] = headers[name]
  }
  return out
}

/**
 * The headers sent upstream: the client's end-to-end headers without its claims (isClientClaim),
 * then X-Forwarded-For, -Proto and -Host as this server knows them. With TRUST_PROXY off that is
 * the socket's peer, its scheme and the Host header; with trusted proxies in front, the chain they
 * vouch for (Fastify's request.ips: the socket's peer, then each trusted hop's X-Forwarded-For entry
 * up to the first address not trusted, which is the client), oldest first as the header lists them.
 */
function upstreamHeaders(request: FastifyRequest, upstreamHost: string): Headers {
  const raw = request.raw.headers as IncomingHttpHeaders
  const listed = listedByConnection(raw.connection)
  const out: Headers = {}
  for (const name in raw) {
    if (HOP_BY_HOP.has(name) || isClientClaim(name) || listed?.has(name)) continue
    out[name] = raw[name]
  }
  Object.assign(out, forwardingHeaders(request))
  out.host = upstreamHost
  return out
}

/**
 * X-Forwarded-For, -Proto and -Host as this server knows them (see upstreamHeaders), and the id the
 * request is logged under here: sent with every upstream call made for a client, the server's own
 * calls on a player's behalf included (the push channel's session check).
 */
export function forwardingHeaders(request: FastifyRequest): Record<string, string> {
  const out: Record<string, string> = {}
  const chain = request.ips ? [...request.ips].reverse() : [request.ip]
  out['x-forwarded-for'] = chain.filter(Boolean).join(', ')
  out['x-forwarded-proto'] = request.protocol
  // The id this request is logged under here, so a request can be followed into the upstream's logs.
  out[REQUEST_ID_HEADER] = request.id
  if (request.host) out['x-forwarded-host'] = request.host
  return out
}

/** The pool of kept-alive upstream connections proxy mode forwards over (and makes its own calls on). */
export function upstreamPool(upstream: string, connections: number): Pool {
  return new Pool(new URL(upstream).origin, {
    connections,
    pipelining: 1,
    keepAliveTimeout: 60_000,
    keepAliveMaxTimeout: 600_000,
  })
}

/**
 * What proxy mode knows of the upstream's health: when it last answered (any answer below 500
 * counts; readiness asks for one within READY_UPSTREAM_MS), and the upstream metrics.
 */
export class UpstreamWatch {
  private lastAnswerAt = Number.NEGATIVE_INFINITY

  constructor(
    private readonly metrics: Metrics | null,
    private readonly now: () => number = performance.now.bind(performance),
  ) {}

  answered(status: number, ms: number): void {
    if (status < 500) this.lastAnswerAt = this.now()
    this.metrics?.upstreamDuration.observe({ status_class: statusClass(status) }, ms / 1000)
  }

  failed(err: Error & { code?: string }): void {
    const code = err.code ?? ''
    const kind = code.includes('TIMEOUT')
      ? 'timeout'
      : /ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|CONNECT/.test(code)
        ? 'connect'
        : 'other'
    this.metrics?.upstreamErrors.inc({ kind })
  }

  /** Milliseconds since the upstream last answered. */
  sinceLastAnswer(): number {
    return this.now() - this.lastAnswerAt
  }
}

/**
 * The contract check of one answer (see ../upstream/contract-monitor.ts): counted, logged once per
 * kind, noted in the journal; with UPSTREAM_NONCONFORMING=refuse, an answer that differs is replaced
 * by a 502 the app shows as a clear error.
 */
export class ContractCheck {
  constructor(
    private readonly monitor: ContractMonitor,
    private readonly endpoint: Endpoint,
    private readonly refuse: boolean,
  ) {}

  /** True when the answer was refused (and a refusal sent instead). */
  refuses(reply: FastifyReply, status: number, body: Buffer): boolean {
    const found =
      status === 404 || status === 405 || status === 501
        ? this.monitor.missing(this.endpoint, status)
        : status < 500
          ? this.monitor.observe(this.endpoint, body)
          : []
    if (found.length === 0) return false
    const entry = reply.request.journalEntry
    if (entry) entry.contract = found.map((m) => `${m.path}: ${m.problem}`)
    if (!this.refuse || status === 404 || status === 405 || status === 501) return false
    reply.code(502).headers(API_HEADERS).send(failure(CODE.badUpstream, UPSTREAM_NONCONFORMING_MSG))
    return true
  }
}

/** What a player reads when the upstream's answer was refused for not keeping to the contract. */
export const UPSTREAM_NONCONFORMING_MSG = '服务暂不可用（上游响应格式不符），请稍后再试'

/** An upstream failure as the error handler answers it: 504 when it timed out, 502 otherwise. */
function upstreamFailure(err: Error & { code?: string }): Error & { statusCode: number } {
  const timedOut =
    err.code === 'UND_ERR_HEADERS_TIMEOUT' ||
    err.code === 'UND_ERR_BODY_TIMEOUT' ||
    err.code === 'UND_ERR_CONNECT_TIMEOUT'
  return Object.assign(new Error(`upstream: ${err.message}`, { cause: err }), {
    statusCode: timedOut ? 504 : 502,
  })
}

/**
 * A request body larger than this goes upstream on a connection that closes after the answer. An
 * upstream may answer before it has read a body (a refusal, a 404) and then stop reading; the next
 * player's request on that kept-alive connection would wait behind the unread bytes until the
 * upstream's keep-alive timeout. A small body (every request the app sends is under 2 KB) leaves the
 * proxy in one write that the socket's buffers hold whole, and the upstream's server drains it.
 */
export const REUSE_BODY_LIMIT = 16 * 1024

/**
 * The body to forward, always whole and with its length (it is within BODY_LIMIT, checked before):
 * @fastify/http-proxy hands over the client's stream unparsed, which is read to the end first (see
 * readWhole); the content types Fastify parses itself (text/plain, as a string) go as read.
 */
function requestBody(request: FastifyRequest, headers: Headers): Readable | Buffer | string | null {
  const body = request.body
  if (body === undefined || body === null || body instanceof Readable) return body ?? null
  const bytes = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body)
  headers['content-length'] = String(Buffer.byteLength(bytes))
  return bytes
}

/**
 * A client's body stream read whole, refused past `limit` bytes (a body sent without a length). A
 * body streamed straight through held its pooled connection for as long as the client took to send
 * it, and past the answer when the upstream answered first.
 */
async function readWhole(stream: Readable, headers: Headers, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > limit) throw Object.assign(new Error('request body too large'), { statusCode: 413 })
    chunks.push(chunk)
  }
  const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)
  delete headers['transfer-encoding']
  headers['content-length'] = String(bytes.length)
  return bytes
}

/**
 * One upstream answer, handed to the client as it came: status and end-to-end headers copied; a
 * body of known, small size (every envelope) read whole and sent in one write, anything else
 * streamed with the client's back-pressure. Nothing is sent before the upstream answers, so an
 * upstream failure up to then is answered in the envelope.
 */
class UpstreamAnswer implements Dispatcher.DispatchHandler {
  private status = 0
  private headers: Headers = {}
  private chunks: Buffer[] | null = null
  private stream: Readable | null = null
  private ended = false

  private readonly started = performance.now()

  constructor(
    private readonly reply: FastifyReply,
    private readonly watch: UpstreamWatch,
    /** The contract endpoint whose answer this is, when it is to be checked (see ContractCheck). */
    private readonly check: ContractCheck | null = null,
    /** The adapter's translation of the answer back to the contract (UPSTREAM_ADAPTER). */
    private readonly translate: ((body: Buffer) => Buffer) | null = null,
    /** Answers up to this size are read whole (a translated answer must be). */
    private readonly wholeLimit = WHOLE_BODY_LIMIT,
  ) {}

  onRequestStart(): void {}

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: Headers): void {
    if (statusCode < 200) return // 1xx: informational, the answer comes after it
    this.watch.answered(statusCode, performance.now() - this.started)
    if (this.reply.raw.destroyed) {
      // The client has gone: nobody to answer, so stop reading the upstream.
      controller.abort(new Error('the client closed the connection'))
      return
    }
    this.status = statusCode
    // The upstream's own cache and security headers give way to those of every API answer.
    this.headers = Object.assign(endToEnd(headers), API_HEADERS)
    const length = Number(headers['content-length'])
    if ((length >= 0 && length <= this.wholeLimit) || (this.translate && Number.isNaN(length))) {
      this.chunks = []
      return
    }
    this.stream = new Readable({
      read: () => controller.resume(),
      // Dropped before its end (the client went away): stop reading the upstream too.
      destroy: (err, done) => {
        if (!this.ended) controller.abort(err ?? new Error('the client closed the connection'))
        done(err)
      },
    })
    this.reply.code(statusCode).headers(this.headers).send(this.stream)
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.chunks) this.chunks.push(chunk)
    else if (this.stream && !this.stream.push(chunk)) controller.pause()
  }

  onResponseEnd(): void {
    this.ended = true
    const chunks = this.chunks
    if (chunks) {
      let body = (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)) as Buffer
      if (this.translate) {
        body = this.translate(body)
        this.headers['content-type'] = 'application/json; charset=utf-8'
        delete this.headers['content-length']
        delete this.headers['content-encoding']
      }
      if (this.check?.refuses(this.reply, this.status, body)) return
      this.reply.code(this.status).headers(this.headers).send(body)
    } else this.stream?.push(null)
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error & { code?: string }): void {
    if (this.status === 0) this.watch.failed(err)
    if (this.stream) this.stream.destroy(err)
    else if (!this.reply.sent && !this.reply.raw.destroyed) this.reply.send(upstreamFailure(err))
  }
}

/**
 * Proxy mode: /api/* goes to the upstream unchanged (method, path, query, end-to-end headers,
 * body, status), except for what the client may not claim (see upstreamHeaders). @fastify/http-proxy routes it and checks the destination; its handler forwards
 * over a pool of kept-alive connections (see UpstreamAnswer).
 */
export async function upstreamProxy(
  app: FastifyInstance,
  opts: {
    upstream: string
    connections: number
    bodyLimit: number
    /** Ready while the upstream answered within this long; probed when no player's call shows it. */
    readyWithinMs?: number
    health?: Health
    metrics?: Metrics | null
    /** Checks answers against the contract (UPSTREAM_CONTRACT_SAMPLE); refuses those that differ when `refuse`. */
    monitor?: ContractMonitor | null
    refuseNonConforming?: boolean
    /** UPSTREAM_ADAPTER: how the upstream differs from the contract, applied both ways. */
    adapter?: Adapter | null
    /** Per-address limits by endpoint id (../http/rate-limits.ts), applied before a call is forwarded. */
    limits?: Readonly<Record<string, RateLimit>>
    /** The pool to forward over, when the server's own upstream calls share it (closed with the app). */
    pool?: Pool
    /** The watch to tell of answers, when the server's own upstream calls share it. */
    watch?: UpstreamWatch
  },
): Promise<void> {
  const upstream = new URL(opts.upstream)
  const watch = opts.watch ?? new UpstreamWatch(opts.metrics ?? null)
  const pool = opts.pool ?? upstreamPool(opts.upstream, opts.connections)
  app.addHook('onClose', () => pool.close())
  if (opts.health) {
    const within = opts.readyWithinMs ?? 15_000
    opts.health.add('upstream', () =>
      watch.sinceLastAnswer() <= within ? null : `no answer from the upstream within ${within} ms`,
    )
    // With no player traffic to show it, ask the upstream's public announcements now and then.
    const probe = () => {
      if (watch.sinceLastAnswer() < within / 3) return
      const started = performance.now()
      pool
        .request({
          path: '/api/api2/announcement',
          method: 'GET',
          headersTimeout: within / 3,
          bodyTimeout: within / 3,
        })
        .then(
          (res) => {
            watch.answered(res.statusCode, performance.now() - started)
            return res.body.dump()
          },
          (err: Error & { code?: string }) => watch.failed(err),
        )
        .catch(() => {})
    }
    const timer = setInterval(probe, Math.max(1000, within / 3))
    timer.unref()
    app.addHook('onReady', async () => probe())
    app.addHook('onClose', async () => clearInterval(timer))
  }
  // The limits the emulator's routes have, by the endpoint a call is for. Each has its own count
  // (its id is in the key), kept where the security plugin's store keeps them (Redis when set).
  const limiters = new Map<string, (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>>()
  for (const [id, limit] of Object.entries(opts.limits ?? {})) {
    limiters.set(
      id,
      app.rateLimit({
        max: limit.max,
        timeWindow: limit.timeWindow,
        skipOnError: limit.whenStoreDown === 'open',
        keyGenerator: (request) => `${id}|${request.ip}`,
      }),
    )
  }
  if (limiters.size > 0) {
    app.addHook('onRequest', async (request, reply) => {
      const endpoint = contractEndpoint(request.method, request.url)
      const limiter = endpoint && limiters.get(endpoint.id)
      if (limiter) await limiter(request, reply)
    })
  }
  // Like any front proxy, refuse an oversized body before streaming it upstream: an upstream that
  // answers 413 and closes mid-upload would otherwise surface as a broken connection.
  app.addHook('onRequest', (request, reply, done) => {
    const length = Number(request.headers['content-length'] ?? 0)
    if (length <= opts.bodyLimit) return done()
    reply
      .code(413)
      .header('connection', 'close')
      .send(failure(CODE.payloadTooLarge, SERVER_MSG.payloadTooLarge))
  })
  await app.register(fastifyHttpProxy, {
    upstream: opts.upstream,
    prefix: '/api',
    rewritePrefix: '/api',
    http2: false,
    // reply.from, should anything call it, shares the pool.
    undici: pool,
    handler(request, reply, dest) {
      const url = request.raw.url ?? dest
      const query = url.indexOf('?')
      const method = request.raw.method ?? 'GET'
      const headers = upstreamHeaders(request, upstream.host)
      const sampled = opts.monitor?.endpointFor(method, url)
      const check =
        sampled && opts.monitor
          ? new ContractCheck(opts.monitor, sampled, opts.refuseNonConforming === true)
          : null
      const adapter = opts.adapter
      const send = (
        body: Buffer | string | null,
        target = { path: query < 0 ? dest : dest + url.slice(query), method },
        translate: ((body: Buffer) => Buffer) | null = null,
      ): void => {
        pool.dispatch(
          {
            path: target.path,
            method: target.method as Dispatcher.HttpMethod,
            headers,
            body,
            // Not kept alive after a large body (see REUSE_BODY_LIMIT).
            reset: body !== null && Buffer.byteLength(body) > REUSE_BODY_LIMIT,
          },
          new UpstreamAnswer(reply, watch, check, translate, translate ? opts.bodyLimit : WHOLE_BODY_LIMIT),
        )
      }
      const body = requestBody(request, headers)
      if (!adapter) {
        if (!(body instanceof Readable)) send(body)
        else readWhole(body, headers, opts.bodyLimit).then(send, (err: Error) => reply.send(err))
        return
      }
      // With an adapter: the call translated to the upstream's shape (its headers too), its answer
      // back to the contract.
      const fromHeaders = adapter.headers(headers)
      const whole =
        body instanceof Readable ? readWhole(body, headers, opts.bodyLimit) : Promise.resolve(body)
      whole
        .then(async (raw) => {
          const endpoint = contractEndpoint(method, url)
          const fields = endpoint
            ? await fieldsOf(headers['content-type'] as string | undefined, raw, url)
            : {}
          const translate = answerTranslator(adapter, endpoint, fields)
          if (!endpoint) return send(raw, undefined, translate)
          const translated = adapter.request(endpoint, fields, fromHeaders)
          const call = await encodeCall(translated)
          delete headers['content-type']
          delete headers['content-length']
          if (call.contentType) headers['content-type'] = call.contentType
          if (call.body) headers['content-length'] = String(call.body.length)
          send(call.body, { path: call.path, method: translated.method }, translate)
        })
        .catch((err: Error) =>
          reply.send(Object.assign(err, { statusCode: (err as { statusCode?: number }).statusCode ?? 400 })),
        )
    },
  })
}
