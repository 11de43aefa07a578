import type { DataOf, Endpoint } from '@shared/contract/endpoint'
import { isSessionLostCode, isSuccessCode, readLooseEnvelope } from '@shared/envelope-plain'
import type { Dispatcher } from 'undici'
import { encodeCall } from './adapted-call'
import type { Adapter, Fields } from './adapter'

/** The largest answer the server's own upstream calls read (a round, a page of results, the user's info). */
const MAX_ANSWER_BYTES = 256 * 1024

/** What one of the server's own upstream calls came to. */
export type UpstreamOutcome<E extends Endpoint> =
  | { readonly kind: 'ok'; readonly data: DataOf<E> }
  /** The upstream answered that the session is gone (10001 or 401, after the adapter's translation). */
  | { readonly kind: 'session_lost'; readonly code: number; readonly msg: string }
  /** Any other refusal in the envelope: its code and message, as the upstream gave them. */
  | { readonly kind: 'refused'; readonly code: number; readonly msg: string }
  /** The endpoint is not there (HTTP 404, 405 or 501). */
  | { readonly kind: 'missing'; readonly status: number }

/** An upstream call that could not be read: no answer, a 5xx, not JSON, or data outside the contract. */
export class UpstreamCallError extends Error {
  override name = 'UpstreamCallError'
  constructor(
    message: string,
    /** `network`, `status`, `shape`: what went wrong (a metric's label). */
    readonly kind: 'network' | 'status' | 'shape',
    readonly statusCode = 502,
  ) {
    super(message)
  }
}

/**
 * Proxy mode's own calls to the upstream (not a player's call passed on): the push channel's session
 * check and its reader of rounds and draws (docs/realtime.md#proxy-mode). Each goes over the proxy's
 * pool of kept-alive connections, translated by the adapter when one is set (UPSTREAM_ADAPTER),
 * and its answer is read back to the contract's envelope and checked against the endpoint's schema.
 */
export class UpstreamClient {
  constructor(
    private readonly opts: {
      /** The proxy's pool (the same connections the players' calls use). */
      readonly dispatcher: Dispatcher
      readonly adapter: Adapter | null
      /** Time for the whole answer. */
      readonly timeoutMs: number
      /** Told of every answer's status and time, and of every failure (readiness, the upstream metrics). */
      readonly onAnswer?: (status: number, ms: number) => void
      readonly onFailure?: (err: Error & { code?: string }) => void
    },
  ) {}

  async call<E extends Endpoint>(
    endpoint: E,
    fields: Fields,
    headers: Record<string, string> = {},
  ): Promise<UpstreamOutcome<E>> {
    const { adapter } = this.opts
    const translated = adapter
      ? adapter.request(endpoint, fields)
      : {
          method: endpoint.method,
          path: endpoint.path,
          encoding: endpoint.method === 'GET' ? ('query' as const) : (endpoint.encoding ?? 'urlencoded'),
          fields,
        }
    const encoded = await encodeCall(translated)
    const sent: Record<string, string> = { accept: 'application/json', ...headers }
    if (encoded.contentType) sent['content-type'] = encoded.contentType
    const started = performance.now()
    let status: number
    let body: Buffer
    try {
      const res = await this.opts.dispatcher.request({
        path: encoded.path,
        method: translated.method as Dispatcher.HttpMethod,
        headers: sent,
        body: encoded.body,
        headersTimeout: this.opts.timeoutMs,
        bodyTimeout: this.opts.timeoutMs,
      })
      status = res.statusCode
      this.opts.onAnswer?.(status, performance.now() - started)
      body = await readLimited(res.body)
    } catch (err) {
      const e = err as Error & { code?: string }
      this.opts.onFailure?.(e)
      throw new UpstreamCallError(`upstream ${endpoint.id}: ${e.message}`, 'network', timedOut(e) ? 504 : 502)
    }
    if (status === 404 || status === 405 || status === 501) return { kind: 'missing', status }
    if (status >= 500) throw new UpstreamCallError(`upstream ${endpoint.id}: HTTP ${status}`, 'status')
    let json: unknown
    try {
      json = JSON.parse(body.toString('utf8'))
    } catch {
      throw new UpstreamCallError(`upstream ${endpoint.id}: the answer is not JSON (HTTP ${status})`, 'shape')
    }
    const envelope = adapter ? adapter.answer(endpoint, json, fields) : readLooseEnvelope(json)
    if (!envelope)
      throw new UpstreamCallError(`upstream ${endpoint.id}: the answer is not an envelope`, 'shape')
    const msg = envelope.msg ?? ''
    if (isSessionLostCode(envelope.code)) return { kind: 'session_lost', code: envelope.code, msg }
    if (!isSuccessCode(envelope.code)) return { kind: 'refused', code: envelope.code, msg }
    const data = endpoint.data.safeParse(envelope.data)
    if (!data.success) {
      const first = data.error.issues[0]
      throw new UpstreamCallError(
        `upstream ${endpoint.id}: data differs from the contract at ${first?.path.join('.') || '(data)'}: ${first?.message}`,
        'shape',
      )
    }
    return { kind: 'ok', data: data.data as DataOf<E> }
  }
}

function timedOut(err: { code?: string }): boolean {
  return (
    err.code === 'UND_ERR_HEADERS_TIMEOUT' ||
    err.code === 'UND_ERR_BODY_TIMEOUT' ||
    err.code === 'UND_ERR_CONNECT_TIMEOUT'
  )
}

async function readLimited(
  body: AsyncIterable<Buffer> & { destroy?: (err?: Error) => void },
): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of body) {
    size += chunk.length
    if (size > MAX_ANSWER_BYTES) {
      body.destroy?.(new Error('answer too large'))
      throw new Error(`answer larger than ${MAX_ANSWER_BYTES} bytes`)
    }
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}
