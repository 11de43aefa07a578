import type { FastifyRequest } from 'fastify'

/** Methods that only read: a page on another site may make its visitors' browsers send these. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Whether a state-changing request comes from a page on another site, as the browser tells it
 * (OWASP CSRF guidance, "Fetch Metadata" then "verifying origin with standard headers"):
 * `Sec-Fetch-Site: cross-site`, or, from a browser that does not send Sec-Fetch-Site, an `Origin`
 * whose host differs from the host the request was sent to (an opaque `Origin: null` included).
 * Clients that are not browsers send neither header and are never refused here.
 */
export function isCrossSiteWrite(request: FastifyRequest): boolean {
  if (SAFE_METHODS.has(request.method)) return false
  const site = request.headers['sec-fetch-site']
  if (site !== undefined) return site === 'cross-site'
  const origin = request.headers.origin
  if (origin === undefined) return false
  if (!URL.canParse(origin)) return true
  const from = new URL(origin)
  // The request's host read with the origin's scheme, so a default port written out still matches.
  const to = `${from.protocol}//${request.host}`
  return !URL.canParse(to) || new URL(to).host !== from.host
}
