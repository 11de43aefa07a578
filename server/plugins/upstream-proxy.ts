import fastifyHttpProxy from '@fastify/http-proxy'
import type { FastifyInstance } from 'fastify'

/**
 * Proxy mode: /api/* goes to the upstream unchanged (method, path, query, headers, body,
 * status). Bodies stream through untouched; connections to the upstream are pooled and kept alive.
 */
export async function upstreamProxy(
  app: FastifyInstance,
  opts: { upstream: string; connections: number },
): Promise<void> {
  await app.register(fastifyHttpProxy, {
    upstream: opts.upstream,
    prefix: '/api',
    rewritePrefix: '/api',
    http2: false,
    undici: {
      connections: opts.connections,
      pipelining: 1,
      keepAliveTimeout: 60_000,
      keepAliveMaxTimeout: 600_000,
    },
    replyOptions: {
      // Pass the upstream's headers through, apart from hop-by-hop ones the proxy itself manages.
      rewriteHeaders: (headers) => headers,
    },
  })
}
