/**
 * A lazy module that fails to load (usually: a new deployment replaced the hashed files this page
 * was built against) gets one page reload. If it fails again soon after, the route's error page
 * says so plainly instead of leaving the screen blank.
 *
 * Vite raises `vite:preloadError` for such failures and rethrows unless a listener cancels the
 * event. Nothing cancels it here: the error reaches the route being opened, whose error element
 * reloads once the router has moved to that route, so the reload opens the page the user asked for.
 */

const RELOAD_MARK = 'app-preload-reload-at'
/** A reload this recent means the last one did not help. */
const RETRY_WINDOW_MS = 60_000

const CHUNK_ERROR =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|Failed to load module script/i

export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  return error.name === 'ChunkLoadError' || CHUNK_ERROR.test(error.message)
}

function sessionStore(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null
  } catch {
    return null
  }
}

/** Whether a reload may still help: none was tried within the window, and one can be recorded. */
export function canReload(now: () => number = Date.now, store: Storage | null = sessionStore()): boolean {
  if (!store) return false
  const last = Number(store.getItem(RELOAD_MARK) ?? Number.NaN)
  return !(Number.isFinite(last) && now() - last < RETRY_WINDOW_MS)
}

/** Records the reload, then reloads. */
export function reloadNow(
  reload: () => void = () => globalThis.location.reload(),
  now: () => number = Date.now,
  store: Storage | null = sessionStore(),
): void {
  try {
    store?.setItem(RELOAD_MARK, String(now()))
  } catch {
    // Without the mark the next failure would reload again; canReload() is false without storage.
    return
  }
  reload()
}
