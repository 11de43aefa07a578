import { z } from 'zod'
import { IDEMPOTENCY_KEY_PATTERN, TOKEN_HEADER } from '../shared/constants'
import type { Endpoint } from '../shared/contract/endpoint'
import { SUCCESS_CODES } from '../shared/envelope'

type JsonSchema = Record<string, unknown>

const MIME = {
  urlencoded: 'application/x-www-form-urlencoded',
  multipart: 'multipart/form-data',
  json: 'application/json',
}

/**
 * A request field's JSON Schema, as the server enforces it. A number that may travel as text (ids,
 * pages, a choice among a few numbers) is documented as the number the server reads, with its
 * bounds or its allowed values: its text form carries no bounds of its own.
 */
function requestSchema(schema: z.ZodType): JsonSchema {
  return jsonSchema(schema, 'input', (ctx) => {
    const def = ctx.zodSchema._zod.def
    if (def.type !== 'pipe') return
    const out = (def as z.core.$ZodPipeDef).out
    const outDef = out._zod.def
    const literals =
      outDef.type === 'union' &&
      (outDef as z.core.$ZodUnionDef).options.every((o) => o._zod.def.type === 'literal')
    if (outDef.type !== 'number' && !literals) return
    for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key]
    Object.assign(ctx.jsonSchema, jsonSchema(out as z.ZodType, 'output'))
  })
}

function jsonSchema(
  schema: z.ZodType,
  io: 'input' | 'output',
  override?: (ctx: { zodSchema: z.core.$ZodTypes; jsonSchema: z.core.JSONSchema.BaseSchema }) => void,
): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
    ...(override ? { override } : {}),
  })
  return rest
}

function isOptional(schema: z.ZodType): boolean {
  return schema.safeParse(undefined).success
}

/** A refusal, as every failure is answered: a code that is not a success, the message, no data. */
const FAILURE: JsonSchema = {
  type: 'object',
  properties: {
    code: { type: 'integer', not: { enum: [...SUCCESS_CODES] } },
    msg: { type: 'string' },
    data: { type: 'null' },
  },
  required: ['code', 'msg', 'data'],
}

const refusal = (description: string) => ({
  description,
  content: { 'application/json': { schema: FAILURE } },
})

/** Every answer but 200 is a refusal in the envelope; which ones an endpoint can give. */
function refusals(e: Endpoint): Record<string, unknown> {
  const out: Record<string, unknown> = {
    '400': refusal(
      'Input refused by the contract (code 40000): msg names each bad field, e.g. `参数错误：phone 手机号格式不正确`. Also a body that cannot be read.',
    ),
    '404': refusal('Something the call names does not exist (code 40400).'),
    '413': refusal('The body is too large (code 41300).'),
    '429': refusal('Too many calls from this client address (code 42900).'),
    '502': refusal('Proxy mode: the upstream failed (code 50000).'),
    '504': refusal('Proxy mode: the upstream timed out (code 50000).'),
  }
  if (e.idempotent) {
    out['409'] = refusal(
      'The first call with this Idempotency-Key is still running (code 40900); retry later.',
    )
    out['422'] = refusal('This Idempotency-Key was used for a different request (code 40900).')
  }
  return out
}

function operation(e: Endpoint): Record<string, unknown> {
  const parameters: Record<string, unknown>[] = []
  if (e.auth) {
    parameters.push({
      name: TOKEN_HEADER,
      in: 'header',
      required: true,
      description: 'Session token from login. Without a live one the answer is code 10001 (登录已失效!).',
      schema: { type: 'string' },
    })
  }
  if (e.query) {
    for (const [name, field] of Object.entries(e.query.shape as Record<string, z.ZodType>)) {
      parameters.push({ name, in: 'query', required: !isOptional(field), schema: requestSchema(field) })
    }
  }
  if (e.idempotent) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'New for each submission, reused only to retry it: a replay answers the first answer.',
      schema: { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN.source, minLength: 1, maxLength: 128 },
    })
  }
  const success = jsonSchema(
    z.object({ code: z.union(SUCCESS_CODES.map((c) => z.literal(c))), msg: z.string(), data: e.data }),
    'output',
  )
  const op: Record<string, unknown> = {
    operationId: e.id,
    summary: e.summary,
    tags: [e.tag],
    'x-source': e.source,
    'x-fields': e.fields,
    parameters,
    responses: {
      '200': {
        description:
          'The envelope: code 1 or 200 with data on success; any other code is a refusal whose msg the client shows (10001 and 401: the session is gone).',
        content: { 'application/json': { schema: { anyOf: [success, FAILURE] } } },
      },
      ...refusals(e),
    },
  }
  if (e.body) {
    op.requestBody = {
      required: !isOptional(e.body),
      content: { [MIME[e.encoding ?? 'urlencoded']]: { schema: requestSchema(e.body) } },
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
        'x-source: spec = a path the upstream serves; ours = defined here. x-fields: spec = fields as the upstream documents them; ours = designed here where it shows none. Every answer is the envelope {code, msg, data}; refusals carry data null.',
    },
    servers: [{ url: '/' }],
    tags: [...new Set(endpoints.map((e) => e.tag))].map((name) => ({ name })),
    paths,
  }
}
