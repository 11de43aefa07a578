import type { FastifyInstance } from 'fastify'

/**
 * The methods each fixed path answers, collected as routes are added (paths with parameters or
 * wildcards are left out). Lets a call with the wrong method on a known path get 405 and `Allow`
 * instead of 404. Install it before the routes are registered.
 */
export function collectRouteMethods(app: FastifyInstance): (path: string) => readonly string[] | undefined {
  const byPath = new Map<string, string[]>()
  app.addHook('onRoute', (route) => {
    if (route.url.includes(':') || route.url.includes('*')) return
    const path = withoutTrailingSlash(route.url)
    const methods = byPath.get(path) ?? []
    for (const m of [route.method].flat()) if (!methods.includes(m)) methods.push(m)
    byPath.set(path, methods)
  })
  return (path) => byPath.get(withoutTrailingSlash(path))
}

const withoutTrailingSlash = (path: string) =>
  path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path
