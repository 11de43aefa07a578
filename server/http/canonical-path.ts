/**
 * One spelling per path. The router decodes a request's path before matching it, and browsers,
 * proxies and upstreams normalise dot segments, doubled slashes and case in their own ways, so
 * `/%5F%5Femu/state`, `//api/x`, `/api/../__emu/state` or `http://host/__emu/state` can each reach a
 * route by one reading and a guard by another. Every request whose path is not written the one way
 * this server writes its own paths is refused before any route runs (RFC 3986 §6.2.2: unreserved
 * characters are never percent-encoded, there are no dot segments; and no more than that).
 *
 * Guards do not rely on this alone: they read the route that matched (see ../plugins/security.ts),
 * so a spelling this misses still meets the guard of the route it reaches.
 */

/** The first segments this server reserves for itself, in the case it writes them. */
export const RESERVED_PREFIXES = ['api', 'api-docs', '__emu'] as const

/** A percent-escape of an unreserved character (ALPHA, DIGIT, - . _ ~), or of a slash or backslash. */
const ENCODED_PLAIN = /%(?:[46][1-9a-f]|[57][0-9a]|3[0-9]|2[de]|5f|7e|2f|5c)/i

/**
 * Why a request target is not in this server's one spelling, or null when it is. The query string
 * (after `?`) is not the path and is left alone.
 */
export function nonCanonicalReason(target: string): string | null {
  const end = target.indexOf('?')
  const path = end < 0 ? target : target.slice(0, end)
  if (!path.startsWith('/')) return '不是以 / 开头的路径'
  if (path.includes('//')) return '路径含空段 //'
  if (path.includes('\\')) return '路径含反斜杠'
  if (path.includes(';')) return '路径含分号参数'
  if (ENCODED_PLAIN.test(path)) return '路径含不必要的百分号编码'
  for (const segment of path.split('/')) {
    if (segment === '.' || segment === '..') return '路径含 . 或 .. 段'
  }
  const first = path.slice(1, path.indexOf('/', 1) < 0 ? undefined : path.indexOf('/', 1))
  const lower = first.toLowerCase()
  if (first !== lower && (RESERVED_PREFIXES as readonly string[]).includes(lower))
    return '保留路径的大小写不正确'
  return null
}
