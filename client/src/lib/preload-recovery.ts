/**
 * A lazy module that fails to load (usually: a new deployment replaced the hashed files this page
 * was built against) gets one page reload. If it fails again soon after, the error reaches the
 * route's error page, which says so plainly instead of leaving the screen blank.
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

function session(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null
  } catch {
    return null
  }
}

/** Reloads unless a reload was already tried within the window; says whether it reloaded. */
export function reloadOnce(
  reload: () => void = () => globalThis.location.reload(),
  now: () => number = () => Date.now(),
  store: Storage | null = session(),
): boolean {
  const last = Number(store?.getItem(RELOAD_MARK) ?? Number.NaN)
  if (Number.isFinite(last) && now() - last < RETRY_WINDOW_MS) return false
  try {
    store?.setItem(RELOAD_MARK, String(now()))
  } catch {
    // Without storage there is no way to tell a second failure from the first: do not loop.
    return false
  }
  if (!store) return false
  reload()
  return true
}

/** Vite fires `vite:preloadError` when a lazy chunk's dependencies fail to load. */
export function installPreloadRecovery(win: Window = window, reload?: () => void): () => void {
  const onPreloadError = (event: Event) => {
    if (reloadOnce(reload)) event.preventDefault()
  }
  win.addEventListener('vite:preloadError', onPreloadError)
  return () => win.removeEventListener('vite:preloadError', onPreloadError)
}
