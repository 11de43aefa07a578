import type { ControlDataOf, ControlEndpoint } from '@shared/emu-contract/control-endpoint'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { z } from 'zod'
import { ok } from './envelope'

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined

export interface ControlInput<E extends ControlEndpoint> {
  readonly params: Parsed<E['params']>
  readonly query: Parsed<E['query']>
  readonly body: Parsed<E['body']>
  readonly request: FastifyRequest
}

/**
 * Registers a control route (/__emu) from its contract object, as `contractRoute` does for /api:
 * method and path come from the contract, its params, query and body schemas validate before the
 * handler runs, and the handler's return value goes out as `data` in a success envelope. The path
 * is the contract's full path, so the plugin that calls this is registered without a prefix. Who
 * may call is decided before, for every /__emu URL (the fault layer's admin access, or loopback only).
 */
export function controlRoute<E extends ControlEndpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: (input: ControlInput<E>) => ControlDataOf<E> | Promise<ControlDataOf<E>>,
): void {
  if (app.prefix !== '') {
    throw new Error(`${endpoint.id}: a control route is registered at its full path, not under ${app.prefix}`)
  }
  const schema: Record<string, z.ZodType> = {}
  if (endpoint.params) schema.params = endpoint.params
  if (endpoint.query) schema.querystring = endpoint.query
  if (endpoint.body) schema.body = endpoint.body
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    schema,
    handler: async (request) => {
      const input = {
        params: request.params,
        query: request.query,
        body: request.body,
        request,
      } as ControlInput<E>
      return ok(await handler(input))
    },
  })
}
