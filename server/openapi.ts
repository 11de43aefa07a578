import { z } from 'zod'
import { TOKEN_HEADER } from '../shared/constants'
import type { Endpoint } from '../shared/contract/endpoint'
import { envelopeSchema, looseEnvelopeSchema } from '../shared/envelope'

type JsonSchema = Record<string, unknown>

const MIME = {
  urlencoded: 'application/x-www-form-urlencoded',
  multipart: 'multipart/form-data',
  json: 'application/json',
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
  })
  return rest
}

function isOptional(schema: z.ZodType): boolean {
  return schema.safeParse(undefined).success
}

function operation(e: Endpoint): Record<string, unknown> {
  const parameters: Record<string, unknown>[] = []
  if (e.auth) {
    parameters.push({
      name: TOKEN_HEADER,
      in: 'header',
      required: true,
      description: 'Session token from login',
      schema: { type: 'string' },
    })
  }
  if (e.query) {
    for (const [name, field] of Object.entries(e.query.shape as Record<string, z.ZodType>)) {
      parameters.push({ name, in: 'query', required: !isOptional(field), schema: jsonSchema(field, 'input') })
    }
  }
  const op: Record<string, unknown> = {
    operationId: e.id,
    summary: e.summary,
    tags: [e.tag],
    'x-source': e.source,
    'x-fields': e.fields,
    parameters,
    responses: {
      '200': {
        description: 'Envelope: code 1 or 200 with data on success; any other code carries msg.',
        content: { 'application/json': { schema: jsonSchema(envelopeSchema(e.data), 'output') } },
      },
      '400': {
        description: 'Input refused by the contract; msg names the field.',
        content: { 'application/json': { schema: jsonSchema(looseEnvelopeSchema, 'output') } },
      },
    },
  }
  if (e.idempotent) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      schema: { type: 'string', maxLength: 200 },
    })
  }
  if (e.body) {
    op.requestBody = {
      required: !isOptional(e.body),
      content: { [MIME[e.encoding ?? 'urlencoded']]: { schema: jsonSchema(e.body, 'input') } },
    }
  }
  return op
}

/** The OpenAPI 3.1 document, built from the contract alone, the same in both modes. */
export function buildOpenApi(endpoints: readonly Endpoint[], version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const e of endpoints) {
    const item = paths[e.path] ?? {}
    item[e.method.toLowerCase()] = operation(e)
    paths[e.path] = item
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Hash game web API',
      version,
      description:
        'x-source: spec = a path the upstream serves; ours = defined here. x-fields: spec = fields as the spec gives them; ours = designed here where the spec shows none.',
    },
    servers: [{ url: '/' }],
    tags: [...new Set(endpoints.map((e) => e.tag))].map((name) => ({ name })),
    paths,
  }
}
