/**
 * Lets code outside React (the HTTP client, session flows) change the route. The router
 * registers itself as it first renders; without one, the browser navigates directly.
 */
type Navigate = (to: string, options?: { replace?: boolean }) => void

let navigator: Navigate | null = null
let routerComing = false
let pending: { to: string; options: { replace?: boolean } } | null = null

export function setNavigator(navigate: Navigate | null): void {
  navigator = navigate
  if (!navigate || !pending) return
  // Not at once: the router registers from a layout effect of the first commit, and the router above
  // it starts listening to the history in a layout effect of its own, which runs after this one.
  queueMicrotask(() => {
    if (!navigator || !pending) return
    const { to, options } = pending
    pending = null
    navigator(to, options)
  })
}

/**
 * Called by the app before its first render: a navigation asked for before the router has
 * registered waits for it, instead of loading the page again. The first screen's answers can
 * arrive that early (docs/client.md#the-first-screen), and a lost session must still end on the
 * login page with its message shown, not on a fresh page without it.
 */
export function expectRouter(): void {
  routerComing = true
}

export function navigateTo(to: string, options: { replace?: boolean } = {}): void {
  if (navigator) {
    navigator(to, options)
    return
  }
  if (routerComing) {
    pending = { to, options }
    return
  }
  const location = globalThis.location
  if (!location) return
  if (options.replace) location.replace(to)
  else location.assign(to)
}
