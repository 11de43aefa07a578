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
const KNOWN_CODES: readonly number[] = Object.values(CODE)

/** HTTP statuses that say the endpoint is not there, whatever the body (501: not implemented). */
const MISSING_STATUSES: readonly number[] = [404, 405, 501]

/** The class a failure has by its kind alone (lib/http.ts's ApiErrorKind). */
const CLASS_OF_KIND: Readonly<Record<string, FailureClass>> = {
  session: 'session',
  unauthorized: 'session',
  aborted: 'aborted',
  network: 'unreachable',
  timeout: 'unreachable',
}

/** The fields of an ApiError (lib/http.ts) the class is read from; kept structural so this stays plain. */
export interface FailureFacts {
  kind: string
  details?: { status?: number | undefined; code?: number | undefined; method?: string | undefined }
}

export function classifyFailure({ kind, details = {} }: FailureFacts): FailureClass {
  const { status = 200, code, method = 'GET' } = details
  const byKind = CLASS_OF_KIND[kind]
  if (byKind) return byKind
  if (MISSING_STATUSES.includes(status) || kind === 'invalid-response' || code === CODE.methodNotAllowed)
    return 'missing'
  // No envelope, and an HTTP failure other than the ones above (a proxy's 502 page).
  if (code === undefined) return 'unreachable'
  // A code of its own with an HTTP failure status (an upstream's 503 in the body) is that failure,
  // worded by the server; to a write it is the upstream's own refusal code. Only a read answered
  // 2xx with a code the app does not know says the server has no such endpoint.
  const failedStatus = status < 200 || status >= 300
  return KNOWN_CODES.includes(code) || failedStatus || method !== 'GET' ? 'refused' : 'missing'
}

/** The failure (an ApiError, or anything else thrown) says the server does not offer the endpoint. */
export const isEndpointMissing = (error: unknown): boolean =>
  error instanceof Error && 'kind' in error && classifyFailure(error as FailureFacts) === 'missing'
