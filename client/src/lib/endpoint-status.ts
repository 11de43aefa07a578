import { CODE } from '@shared/envelope-plain'

/**
 * What a failed call means for the page that made it (docs/upstream.md, "When an endpoint is
 * missing or refused"):
 *
 * - `missing`: the server does not offer the endpoint — an upstream without one of our endpoints.
 *   HTTP 404, 405 or 501 whatever the body, the envelope's 405 (40500), a code the app does not know
 *   in an HTTP 2xx answer to a read, or an answer that is not the shape the contract gives. The page hides the section that needs it,
 *   or says 当前服务暂不支持此功能; asking again would not help.
 * - `refused`: the server has the endpoint and said no, with a code of the envelope's table (a
 *   business rule, bad input, a rate limit, a server failure), or with a code of its own to a write
 *   (an upstream's own refusal codes: writes are refused for business reasons) or with an HTTP
 *   failure status (a 503 that says why). The page shows its message.
 * - `unreachable`: the call did not get through (no connection, a time-out, an HTTP failure other
 *   than 404/405/501 without an envelope); it may be tried again.
 * - `session` (handled by the HTTP client: the login page) and `aborted` (nothing to show).
 */
export type FailureClass = 'missing' | 'refused' | 'unreachable' | 'session' | 'aborted'

/** The codes the app knows (shared/envelope-plain.ts); any other code reads as a missing endpoint. */
const KNOWN_CODES: ReadonlySet<number> = new Set(Object.values(CODE))

/** HTTP statuses that say the endpoint is not there, whatever the body (501: not implemented). */
const MISSING_STATUSES: ReadonlySet<number> = new Set([404, 405, 501])

/** The fields of an ApiError (lib/http.ts) the class is read from; kept structural so this stays plain. */
export interface FailureFacts {
  kind: string
  details?: { status?: number | undefined; code?: number | undefined; method?: string | undefined }
}

export function classifyFailure(error: FailureFacts): FailureClass {
  const { kind } = error
  const status = error.details?.status
  const code = error.details?.code
  if (kind === 'session' || kind === 'unauthorized') return 'session'
  if (kind === 'aborted') return 'aborted'
  if (kind === 'network' || kind === 'timeout') return 'unreachable'
  if (status !== undefined && MISSING_STATUSES.has(status)) return 'missing'
  if (kind === 'invalid-response') return 'missing'
  if (code !== undefined) {
    if (code === CODE.methodNotAllowed) return 'missing'
    if (KNOWN_CODES.has(code)) return 'refused'
    // A code of its own with an HTTP failure status (an upstream's 503 in the body) is that
    // failure, worded by the server; to a write it is the upstream's own refusal code. Only a read
    // answered 2xx with a code the app does not know says the server has no such endpoint.
    const failedStatus = status !== undefined && (status < 200 || status >= 300)
    const method = error.details?.method
    const write = method !== undefined && method !== 'GET'
    return failedStatus || write ? 'refused' : 'missing'
  }
  return 'unreachable'
}

/** The failure says the server does not offer the endpoint. */
export const isEndpointMissing = (error: unknown): boolean =>
  typeof error === 'object' &&
  error !== null &&
  'kind' in error &&
  typeof error.kind === 'string' &&
  classifyFailure(error as FailureFacts) === 'missing'

/**
 * Where a read stands, for the section that shows it: `missing` hides it or explains
 * (components/read-state), `refused` and `unreachable` say so with a retry.
 */
export type Availability = 'loading' | 'ready' | 'missing' | 'refused' | 'unreachable'

export function availabilityOf(data: unknown, error: FailureFacts | undefined | null): Availability {
  if (data !== undefined) return 'ready'
  if (!error) return 'loading'
  const failure = classifyFailure(error)
  if (failure === 'missing') return 'missing'
  if (failure === 'refused') return 'refused'
  return failure === 'unreachable' ? 'unreachable' : 'loading'
}
