import {
  IDEMPOTENCY_HEADER,
  LOADING_TOAST_AFTER_MS,
  REQUEST_TIMEOUT_MS,
  TOKEN_HEADER,
} from '@shared/constants'
import type { BodyOf, DataOf, Endpoint, EndpointRoute, QueryOf } from '@shared/contract/endpoint'
import { encodeBody, pathWithQuery } from '@shared/contract/request'
// Not envelope.ts: its schemas would bring zod into the first screen (the contract's schemas come
// with the endpoints, loaded by the pages that call them).
import {
  CODE,
  envelopeMessage,
  isSessionLostCode,
  isSuccessCode,
  type LooseEnvelope,
  readLooseEnvelope,
} from '@shared/envelope-plain'
import { MSG } from '@shared/messages'
import type { z } from 'zod'
import { SESSION_LOST_PATH } from '../config/paths'
import { connectivity } from './connectivity'
import { classifyFailure } from './endpoint-status'
import { navigateTo } from './navigation'
import { type Refusal, readRefusal } from './refusal'
import { currentPath, rememberForLogin } from './return-to'
import { session } from './session-store'
import { storage } from './storage'
import { holdLoadingToast, showToast } from './toast'

/**
 * The one way the app calls the API. It takes a contract object from shared/, sends the request
 * the way the contract says, parses the answer with the contract's schema, and turns every
 * failure into the toast and redirect of the error catalogue (docs/product.md#error-catalogue).
 */

export type ApiErrorKind =
  /** The body carried a code that is neither success nor session loss. */
  | 'business'
  /** Body code 10001 or 401. */
  | 'session'
  /** HTTP status 401. */
  | 'unauthorized'
  | 'timeout'
  | 'network'
  /** Any other HTTP failure, or an answer that is not the envelope the contract promises. */
  | 'http'
  | 'invalid-response'
  /** The caller cancelled; nothing is shown. */
  | 'aborted'

export class ApiError extends Error {
  override name = 'ApiError'
  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    /** `method`: the call's, so that a failure can be read without its endpoint (lib/endpoint-status.ts). */
    readonly details: { code?: number; status?: number; envelope?: LooseEnvelope; method?: string } = {},
  ) {
    super(message)
  }
}

export interface CallInput<E extends Endpoint> {
  query?: QueryOf<E>
  body?: BodyOf<E>
}

export interface CallOptions {
  signal?: AbortSignal
  /**
   * For endpoints marked `idempotent` (money-moving POSTs): the key that makes a repeated
   * submission move money once. Pass the same key when the user retries the same form; without
   * one, each call gets a fresh key.
   */
  idempotencyKey?: string
  /**
   * Failures are thrown without a toast (a lost session is still handled): for probing an
   * endpoint of ours that an upstream may not have, where the caller hides what it cannot show.
   */
  quiet?: boolean
  /**
   * Sends the call itself even when index.html preloaded the same URL: Chromium hands a preload to
   * a fetch of that URL whatever the fetch's headers (so without its token), unless the fetch's
   * credentials mode differs. The call is sent with `credentials: 'include'`, which for our own
   * origin sends what `same-origin` does (features/home/announcements-request.ts).
   */
  bypassPreload?: boolean
}

/** A random key; crypto.randomUUID needs a secure context, getRandomValues does not. */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}

let origin = ''

/** The timers behind the request time-out, the loading toast's delay and the pause before a retry. */
export interface HttpTimers {
  setTimeout(fn: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

const REAL_TIMERS: HttpTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
}

let timers = REAL_TIMERS

/**
 * For tests that run the app's calls against a real server: timers they fire themselves, so the
 * 10 s time-out is no real-time limit on a busy machine and the pause before a retry no real wait.
 * `null` puts the real ones back.
 */
export function setHttpTimers(value: HttpTimers | null): void {
  timers = value ?? REAL_TIMERS
}

/** For callers outside a page (tools, tests in Node): where `/api` lives. A page leaves it empty. */
export function setApiOrigin(value: string): void {
  origin = value.replace(/\/$/, '')
}

export function requestUrl(endpoint: EndpointRoute, query: unknown): string {
  return `${origin}${pathWithQuery(endpoint, query)}`
}

/** docs/product.md#constants: no loading toast for the balance call, nor for calls whose form body carries a token. */
export function showsLoadingToast(endpoint: EndpointRoute, body: unknown): boolean {
  if (endpoint.loadingToast === false) return false
  return !(body !== null && typeof body === 'object' && !(body instanceof Blob) && 'token' in body)
}

/** A protection refusal in its dialog (lib/refusal.ts), loaded when first needed. */
function showRefusalDialog(refusal: Refusal): void {
  import('../components/refusal-dialog/refusal-dialog').then(
    (m) => m.showRefusal(refusal),
    (err: unknown) => {
      console.error('refusal dialog could not load', err)
      showToast(refusal.message)
    },
  )
}

/**
 * Throws the failure, shown as the error catalogue says. An endpoint the server does not offer
 * (lib/endpoint-status.ts) is worded 当前服务暂不支持此功能 rather than in the server's words or an
 * HTTP status; a read of one shows no toast at all, since the page that asked hides the section or
 * explains in its place (docs/upstream.md, "When an endpoint is missing or refused").
 */
function fail(
  kind: ApiErrorKind,
  message: string,
  details?: ApiError['details'],
  quiet = false,
  method = 'GET',
): never {
  const facts = { ...details, method }
  const missing = classifyFailure({ kind, details: facts }) === 'missing'
  // An answer of another shape keeps its own words: a write may have done its work.
  const shown = missing && kind !== 'invalid-response' ? MSG.unsupported : message
  const silent = quiet || (missing && method === 'GET')
  const refusal = kind === 'business' && !silent && !missing ? readRefusal(message) : null
  if (refusal) showRefusalDialog(refusal)
  else if (kind !== 'aborted' && !silent) showToast(shown)
  throw new ApiError(kind, shown, facts)
}

/**
 * A call that cannot reach the server: the first one says so in a toast, then the offline banner
 * (components/offline-banner) stands in for it until the server answers again, so a page that
 * polls does not repeat the toast every few seconds.
 */
function failNetwork(quiet = false): never {
  const wasOnline = connectivity.online
  connectivity.markOffline()
  if (wasOnline && !quiet) showToast(MSG.network)
  throw new ApiError('network', MSG.network)
}

/**
 * How long a read waits before its one retry after a 503 (the server or a proxy in front of it was
 * briefly busy). Only GETs are retried: they change nothing, so asking twice is safe.
 */
export const RETRY_AFTER_503_MS = 600

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason)
      return
    }
    const timer = timers.setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      timers.clearTimeout(timer)
      reject(signal.reason)
    }
    signal.addEventListener('abort', onAbort, { once: true })
  })
}

/**
 * The session is gone (docs/product.md#session-flows): logged out, the message shown, and the
 * player sent to /login?isreg=0, coming back to this page after logging in again. The push channel
 * calls it too, on `session_end`.
 */
export function sessionLost(message: string = MSG.sessionExpired): void {
  rememberForLogin(currentPath())
  session.loseSession()
  showToast(message)
  navigateTo(SESSION_LOST_PATH, { replace: true })
}

/**
 * A session-lost answer ends the session the call was sent with. When that is no longer the stored
 * one (the player logged out, or logged in again, while the call was in flight) it says nothing
 * about the present session: the call fails, and nothing else happens.
 */
function loseSession(
  sentToken: string | null,
  message: string,
  details: ApiError['details'],
  kind: ApiErrorKind,
): never {
  if (storage.token() === sentToken) sessionLost(message)
  throw new ApiError(kind, message, details)
}

function readEnvelope(text: string): LooseEnvelope | null {
  try {
    return readLooseEnvelope(JSON.parse(text))
  } catch {
    return null
  }
}

/** Sends a call and reads a successful envelope; every failure is shown and thrown. */
async function exchange(
  endpoint: EndpointRoute,
  input: { query?: unknown; body?: unknown },
  options: CallOptions,
): Promise<LooseEnvelope> {
  const headers = new Headers({ accept: 'application/json' })
  const token = storage.token()
  if (token) headers.set(TOKEN_HEADER, token)
  if (endpoint.idempotent) headers.set(IDEMPOTENCY_HEADER, options.idempotencyKey ?? newIdempotencyKey())
  const body = encodeBody(endpoint, input.body)
  if (typeof body === 'string') headers.set('content-type', 'application/json')

  const controller = new AbortController()
  let timedOut = false
  const timer = timers.setTimeout(() => {
    timedOut = true
    controller.abort()
  }, REQUEST_TIMEOUT_MS)
  const onCallerAbort = () => controller.abort()
  options.signal?.addEventListener('abort', onCallerAbort, { once: true })

  let releaseLoading: (() => void) | undefined
  const loadingTimer = showsLoadingToast(endpoint, input.body)
    ? timers.setTimeout(() => {
        releaseLoading = holdLoadingToast()
      }, LOADING_TOAST_AFTER_MS)
    : undefined

  let status: number
  let text: string
  try {
    const send = () =>
      fetch(requestUrl(endpoint, input.query), {
        method: endpoint.method,
        headers,
        body,
        signal: controller.signal,
        credentials: options.bypassPreload ? 'include' : 'same-origin',
      })
    let res = await send()
    if (res.status === 503 && endpoint.method === 'GET') {
      await res.body?.cancel()
      await pause(RETRY_AFTER_503_MS, controller.signal)
      res = await send()
    }
    connectivity.markOnline()
    status = res.status
    text = await res.text()
  } catch (err) {
    if (timedOut) fail('timeout', MSG.timeout, {}, options.quiet)
    if (options.signal?.aborted) fail('aborted', 'aborted')
    console.error(`${endpoint.method} ${endpoint.path} failed`, err)
    return failNetwork(options.quiet)
  } finally {
    timers.clearTimeout(timer)
    if (loadingTimer !== undefined) timers.clearTimeout(loadingTimer)
    options.signal?.removeEventListener('abort', onCallerAbort)
    releaseLoading?.()
  }

  if (status === 401) loseSession(token, MSG.sessionExpired, { status }, 'unauthorized')

  const envelope = readEnvelope(text)
  if (!envelope) {
    const message =
      status >= 200 && status < 300
        ? `${MSG.requestFailed}（响应格式错误）`
        : `${MSG.requestFailed}（HTTP ${status}）`
    fail(
      status >= 200 && status < 300 ? 'invalid-response' : 'http',
      message,
      { status },
      options.quiet,
      endpoint.method,
    )
  }
  const details = { status, code: envelope.code, envelope }
  if (isSessionLostCode(envelope.code)) {
    loseSession(token, envelopeMessage(envelope) ?? MSG.sessionExpired, details, 'session')
  }
  if (!isSuccessCode(envelope.code)) {
    // A key already used for another request (HTTP 422): a client fault, worded for the player.
    const keyReused = status === 422 && envelope.code === CODE.conflict
    const message = keyReused ? MSG.resubmit : (envelopeMessage(envelope) ?? MSG.requestFailed)
    fail('business', message, details, options.quiet, endpoint.method)
  }
  if (status < 200 || status >= 300) {
    fail(
      'http',
      envelopeMessage(envelope) ?? `${MSG.requestFailed}（HTTP ${status}）`,
      details,
      options.quiet,
      endpoint.method,
    )
  }
  return envelope
}

function parseData<S extends z.ZodType>(
  endpoint: EndpointRoute,
  schema: S,
  envelope: LooseEnvelope,
  quiet = false,
): z.output<S> {
  const data = schema.safeParse(envelope.data)
  if (!data.success) {
    console.error(`${endpoint.method} ${endpoint.path}: data does not match the contract`, data.error.issues)
    fail(
      'invalid-response',
      `${MSG.requestFailed}（响应格式错误）`,
      { code: envelope.code, envelope },
      quiet,
      endpoint.method,
    )
  }
  return data.data
}

export async function callApi<E extends Endpoint>(
  endpoint: E,
  input: CallInput<E> = {},
  options: CallOptions = {},
): Promise<DataOf<E>> {
  return parseData<E['data']>(
    endpoint,
    endpoint.data,
    await exchange(endpoint, input, options),
    options.quiet,
  )
}

/** The same call for code that holds an endpoint of no particular type (SWR's fetcher). */
export async function callEndpoint(
  endpoint: Endpoint,
  input: { query?: unknown; body?: unknown } = {},
  options: CallOptions = {},
): Promise<unknown> {
  return parseData(endpoint, endpoint.data, await exchange(endpoint, input, options), options.quiet)
}

/**
 * callApi for an endpoint whose schemas are still loading (docs/client.md#the-first-screen): the
 * request leaves at once from its route, and the answer is parsed once the endpoint is there.
 */
export async function callApiEarly<E extends Endpoint>(
  route: EndpointRoute & Pick<E, 'method' | 'path'>,
  endpoint: Promise<E>,
  input: CallInput<E> = {},
  options: CallOptions = {},
): Promise<DataOf<E>> {
  const [loaded, envelope] = await Promise.all([endpoint, exchange(route, input, options)])
  return parseData<E['data']>(loaded, loaded.data, envelope, options.quiet)
}

/**
 * A call read without zod: `read` gives the data as the endpoint's schema parses it, or null where
 * the schema would fail (shared/contract/first-screen.ts). For the first screen's reads, which must
 * not wait for zod to load.
 */
export async function callRoute<T>(
  route: EndpointRoute,
  read: (data: unknown) => T | null,
  input: { query?: unknown; body?: unknown } = {},
  options: CallOptions = {},
): Promise<T> {
  const envelope = await exchange(route, input, options)
  const data = read(envelope.data)
  if (data === null) {
    console.error(`${route.method} ${route.path}: data does not match the contract`)
    fail(
      'invalid-response',
      `${MSG.requestFailed}（响应格式错误）`,
      { code: envelope.code, envelope },
      options.quiet,
      route.method,
    )
  }
  return data
}
