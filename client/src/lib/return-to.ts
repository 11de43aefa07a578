/**
 * Bringing the player back to where they were. A page that sends the player to another page to
 * finish something first (set the payment password, bind an address) puts its own path in the
 * `from` query parameter; a lost session or a page that needs a login remembers the page for the
 * rest of the visit (sessionStorage) and the login page goes back there.
 */

export const RETURN_QUERY = 'from'
const AFTER_LOGIN_KEY = 'returnAfterLogin'

/** Only a path inside this app: "/cash?x=1", never "//evil.example" or "https://…". */
export function isAppPath(value: string | null | undefined): value is string {
  return (
    typeof value === 'string' && value.startsWith('/') && !value.startsWith('//') && !value.includes('\\')
  )
}

/** `path` with `?from=<back>` (or `&from=` when it already has a query). */
export function withReturn(path: string, back: string): string {
  return `${path}${path.includes('?') ? '&' : '?'}${RETURN_QUERY}=${encodeURIComponent(back)}`
}

/** Where a page opened `withReturn` should go when done; null when it was opened directly. */
export function returnFrom(params: URLSearchParams): string | null {
  const back = params.get(RETURN_QUERY)
  return isAppPath(back) ? back : null
}

function sessionStore(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null
  } catch {
    return null
  }
}

/** Remembers the page to come back to after the next login; the login page itself is never one. */
export function rememberForLogin(path: string): void {
  if (!isAppPath(path) || path === '/login' || path.startsWith('/login?')) return
  try {
    sessionStore()?.setItem(AFTER_LOGIN_KEY, path)
  } catch {
    // Storage disabled: the player lands on the home page after logging in, as before.
  }
}

/** The remembered page, forgotten as it is read. */
export function takeAfterLogin(): string | null {
  try {
    const store = sessionStore()
    const path = store?.getItem(AFTER_LOGIN_KEY) ?? null
    store?.removeItem(AFTER_LOGIN_KEY)
    return isAppPath(path) ? path : null
  } catch {
    return null
  }
}

/** The page the player is on now, as a path with its query. */
export function currentPath(): string {
  const location = globalThis.location
  return location ? `${location.pathname}${location.search}` : '/'
}
