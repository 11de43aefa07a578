import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import fastifySwagger from '@fastify/swagger'
import fastifySwaggerUi from '@fastify/swagger-ui'
import { BYTES_ENDPOINTS, ENDPOINTS } from '@shared/contract/registry'
import { STREAM_ENDPOINTS } from '@shared/contract/stream'
import { CODE } from '@shared/envelope'
import { SERVER_MSG } from '@shared/messages'
import type { FastifyInstance } from 'fastify'
import { failure } from '../http/envelope'
import { buildOpenApi } from '../openapi'
import { ROOT_DIR } from '../paths'

/** Where the upstream contract (docs/upstream.md, written by `npm run upstream:doc`) is served. */
export const UPSTREAM_DOC_ROUTE = '/api-docs/upstream.md'

/**
 * OpenAPI from the contract at /api-docs (UI) and /api-docs/json, and beside it the upstream
 * contract as Markdown at /api-docs/upstream.md.
 */
export async function apiDocs(
  app: FastifyInstance,
  options: { upstreamDocFile?: string } = {},
): Promise<void> {
  await app.register(fastifySwagger, {
    mode: 'static',
    specification: { document: buildOpenApi(ENDPOINTS, '1.0.0', BYTES_ENDPOINTS, STREAM_ENDPOINTS) as never },
  })
  await app.register(fastifySwaggerUi, { routePrefix: '/api-docs', staticCSP: true })

  const file = options.upstreamDocFile ?? join(ROOT_DIR, 'docs/upstream.md')
  app.get(UPSTREAM_DOC_ROUTE, async (_request, reply) => {
    let text: string
    try {
      text = await readFile(file, 'utf8')
    } catch {
      return reply.code(404).send(failure(CODE.notFound, SERVER_MSG.notFound))
    }
    return reply.type('text/markdown; charset=utf-8').send(text)
  })
}
