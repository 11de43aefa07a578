import fastifySwagger from '@fastify/swagger'
import fastifySwaggerUi from '@fastify/swagger-ui'
import { ENDPOINTS } from '@shared/contract/registry'
import type { FastifyInstance } from 'fastify'
import { buildOpenApi } from '../openapi'

/** OpenAPI from the contract at /api-docs (UI) and /api-docs/json. */
export async function apiDocs(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    mode: 'static',
    specification: { document: buildOpenApi(ENDPOINTS, '1.0.0') as never },
  })
  await app.register(fastifySwaggerUi, { routePrefix: '/api-docs', staticCSP: true })
}
