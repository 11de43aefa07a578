import { CODE } from '@shared/envelope'
import { SERVER_MSG } from '@shared/messages'
import type { FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { nonCanonicalReason } from '../http/canonical-path'
import { failure } from '../http/envelope'
import { API_HEADERS } from './security'

/**
 * What part of the server handles a request, judged by the route that matched it (the router has
 * already decoded and matched the path): `api` for the players' endpoints (the emulator's routes, or
 * proxy mode's `/api/*`), `control` for the tester's `/__emu`, `docs` for `/api-docs`, `ops` for
 * `/livez` and `/readyz`, `other` for the app's pages and files. Every guard reads this, never the URL as written.
 */
export type Surface = 'api' | 'control' | 'docs' | 'ops' | 'other'

declare module 'fastify' {
  interface FastifyRequest {
    /** Set before any other hook runs (see requestTarget). */
    surface: Surface
  }
}

/** The surface a route pattern (or, for a request no route takes, its canonical path) belongs to. */
export function surfaceOf(path: string): Surface {
  if (path === '/api' || path.startsWith('/api/') || path.startsWith('/api?')) return 'api'
  if (path === '/__emu' || path.startsWith('/__emu/') || path.startsWith('/__emu?')) return 'control'
  if (path === '/api-docs' || path.startsWith('/api-docs/')) return 'docs'
  if (path === '/livez' || path === '/readyz') return 'ops'
  return 'other'
}

/**
 * The request's surface: its route's, or, for a request no route of its own takes (a 404, or the
 * built client's catch-all `/*` that serves files and pages), its path's, which is canonical by then.
 */
export function surfaceOfRequest(request: FastifyRequest): Surface {
  // `routeOptions.url` is the matched route's pattern; undefined when nothing matched.
  const pattern = request.routeOptions.url
  return surfaceOf(pattern === undefined || pattern === '/*' ? request.url : pattern)
}

/**
 * The first hook of every request: a target not in the one spelling (see ../http/canonical-path.ts)
 * is answered 400 before anything else runs; every other request is told its surface. A method that
 * no route of a known `/api` or `/__emu` path serves (QUERY, TRACE, PATCH…) is answered 405 with
 * `Allow` here too, before Fastify would ask a body method for its content type.
 */
export const requestTarget = fp(
  async (app, opts: { methodsOf: (path: string) => readonly string[] | undefined }) => {
    app.decorateRequest('surface', 'other')
    app.addHook('onRequest', (request, reply, done) => {
      const reason = nonCanonicalReason(request.url)
      if (reason !== null) {
        request.log.info({ reason }, 'refused a request path not in its canonical spelling')
        reply
          .code(400)
          .headers(API_HEADERS)
          .send(failure(CODE.invalidInput, `请求地址格式错误（${reason}）`))
        return
      }
      const surface = surfaceOfRequest(request)
      request.surface = surface
      if (surface === 'api' || surface === 'control') {
        const pattern = request.routeOptions.url
        if (pattern === undefined || pattern === '/*') {
          const end = request.url.indexOf('?')
          const allowed = opts.methodsOf(end < 0 ? request.url : request.url.slice(0, end))
          if (allowed) {
            reply
              .code(405)
              .headers(API_HEADERS)
              .header('allow', allowed.join(', '))
              .send(failure(CODE.methodNotAllowed, SERVER_MSG.methodNotAllowed))
            return
          }
        }
      }
      done()
    })
  },
  { name: 'request-target' },
)
