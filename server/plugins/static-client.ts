import { existsSync } from 'node:fs'
import { join } from 'node:path'
import fastifyStatic from '@fastify/static'
import { CODE } from '@shared/envelope'
import { SERVER_MSG } from '@shared/messages'
import type { FastifyInstance } from 'fastify'
import { failure } from '../http/envelope'

const IMMUTABLE = 'public, max-age=31536000, immutable'
const NO_CACHE = 'no-cache, no-store, must-revalidate'

/**
 * Serves the built client: hashed assets precompressed (brotli, gzip) and cached for a year,
 * index.html never cached and answered for every app route.
 */
export async function staticClient(
  app: FastifyInstance,
  opts: {
    dist: string
    /** The methods a known path answers (see ../http/route-methods.ts), for 405 instead of 404. */
    methodsOf: (path: string) => readonly string[] | undefined
  },
): Promise<void> {
  const hasClient = existsSync(join(opts.dist, 'index.html'))
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: opts.dist,
      preCompressed: true,
      index: false,
      wildcard: true,
      cacheControl: false,
      setHeaders(res, path) {
        res.header('cache-control', path.includes(`${join(opts.dist, 'assets')}`) ? IMMUTABLE : NO_CACHE)
      },
    })
    // The page at the root, for every client: @fastify/static would refuse the bare directory when
    // no precompressed index matched the client's Accept-Encoding. (GET routes answer HEAD too.)
    app.get('/', (_request, reply) => reply.header('cache-control', NO_CACHE).sendFile('index.html'))
  } else {
    app.log.warn({ dist: opts.dist }, 'no built client found; run `npm run build:client`')
  }

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/'
    const isApi = request.surface === 'api' || request.surface === 'control'
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !isApi &&
      !path.startsWith('/assets/') &&
      // A file name (app.js, manifest.webmanifest) that is not in the build is missing, not a page.
      !/\.[a-z0-9]{1,11}$/i.test(path)
    if (wantsPage && hasClient) {
      reply.header('cache-control', NO_CACHE)
      return reply.sendFile('index.html')
    }
    const allowed = isApi ? opts.methodsOf(path) : undefined
    if (allowed) {
      return reply
        .code(405)
        .header('allow', allowed.join(', '))
        .send(failure(CODE.methodNotAllowed, SERVER_MSG.methodNotAllowed))
    }
    return reply.code(404).send(failure(CODE.notFound, SERVER_MSG.notFound))
  })
}
