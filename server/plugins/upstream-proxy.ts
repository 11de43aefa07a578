import type { Readable } from 'node:stream'
import fastifyHttpProxy from '@fastify/http-proxy'
import type { FastifyInstance } from 'fastify'
import { CODE } from '../../shared/envelope'
import { SERVER_MSG } from '../../shared/messages'
import { failure } from '../http/envelope'

/** Upstream answers up to this size are read whole and sent in one write; larger ones stream through. */
const WHOLE_BODY_LIMIT = 64 * 1024

/**
 * The upstream's answer, as reply-from hands it over (headers and status already copied). An
 * answer of known, small size — every envelope — is read into one buffer and sent in one write,
 * instead of being piped chunk by chunk through a stream into the socket; anything else streams.
 */
function sendUpstreamBody(
  reply: { send(payload: unknown): unknown; removeHeader(name: string): unknown },
  res: { headers: Record<string, unknown>; stream: Readable },
) {
  const length = Number(res.headers['content-length'])
  if (!(length >= 0 && length <= WHOLE_BODY_LIMIT)) return reply.send(res.stream)
  const chunks: Buffer[] = []
  res.stream.on('data', (chunk: Buffer) => chunks.push(chunk))
  res.stream.once('end', () => reply.send(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)))
  res.stream.once('error', (err: Error) => {
    // Nothing was sent yet: the headers copied from the upstream go, and the error is answered.
    reply.removeHeader('content-length')
    reply.send(Object.assign(err, { statusCode: 502 }))
  })
}

/**
 * Proxy mode: /api/* goes to the upstream unchanged (method, path, query, headers, body,
 * status). Answers pass through unchanged (small ones read whole, larger ones streamed); connections
 * to the upstream are pooled and kept alive.
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
    replyOptions: {
      onResponse: (_request, reply, res) =>
        sendUpstreamBody(reply, res as unknown as { headers: Record<string, unknown>; stream: Readable }),
    },
    undici: {
      connections: opts.connections,
      pipelining: 1,
      keepAliveTimeout: 60_000,
      keepAliveMaxTimeout: 600_000,
    },
  })
}
