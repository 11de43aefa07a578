/**
 * Lets code outside React (the HTTP client, session flows) change the route. The router
 * registers itself at start; before that, or without one, the browser navigates directly.
 */
type Navigate = (to: string, options?: { replace?: boolean }) => void

let navigator: Navigate | null = null

export function setNavigator(navigate: Navigate | null): void {
  navigator = navigate
}

export function navigateTo(to: string, options: { replace?: boolean } = {}): void {
  if (navigator) {
    navigator(to, options)
    return
  }
  const location = globalThis.location
  if (!location) return
  if (options.replace) location.replace(to)
  else location.assign(to)
}
