import { CONTROL_ENDPOINTS, CONTROL_OPENAPI_PATH } from '@shared/emu-contract/registry'
import type { FastifyInstance } from 'fastify'
import { buildControlOpenApi } from '../openapi'

/** Built on first request, once per process: it depends on the contract alone. */
let document: Record<string, unknown> | undefined

/**
 * The control API's OpenAPI document at /__emu/openapi.json, registered only where /__emu is, and
 * guarded like every /__emu call (the admin token, or loopback only; docs/testing.md#turning-it-on).
 */
export async function controlDocs(app: FastifyInstance): Promise<void> {
  app.get(CONTROL_OPENAPI_PATH, async () => {
    document ??= buildControlOpenApi(CONTROL_ENDPOINTS, '1.0.0')
    return document
  })
}
