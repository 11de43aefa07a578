import fastifyHttpProxy from '@fastify/http-proxy'
import type { FastifyInstance } from 'fastify'
import { CODE } from '../../shared/envelope'
import { SERVER_MSG } from '../../shared/messages'
import { failure } from '../http/envelope'

/**
 * Proxy mode: /api/* goes to the upstream unchanged (method, path, query, headers, body,
 * status). Bodies stream through untouched; connections to the upstream are pooled and kept alive.
 */
export async function upstreamProxy(
  app: FastifyInstance,
  opts: { upstream: string; connections: number; bodyLimit: number },
): Promise<void> {
  // Like any front proxy, refuse an oversized body before streaming it upstream: an upstream that
  // answers 413 and closes mid-upload would otherwise surface as a broken connection.
  app.addHook('onRequest', (request, reply, done) => {
    const length = Number(request.headers['content-length'] ?? 0)
    if (length <= opts.bodyLimit) return done()
    reply
      .code(413)
      .header('connection', 'close')
      .send(failure(CODE.payloadTooLarge, SERVER_MSG.payloadTooLarge))
  })
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
  })
}
