import { IDEMPOTENCY_KEY_PATTERN, SCOPE_HEADER, TOKEN_HEADER } from '@shared/constants'
import type { BytesEndpoint, Endpoint } from '@shared/contract/endpoint'
import { LAST_EVENT_ID_HEADER, STREAM_EVENTS, type StreamEndpoint } from '@shared/contract/stream'
import type { ControlEndpoint } from '@shared/emu-contract/control-endpoint'
import { ADMIN_TOKEN_HEADER } from '@shared/emu-control'
import { CODE, SUCCESS_CODES } from '@shared/envelope'
import { z } from 'zod'

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
export function requestSchema(schema: z.ZodType): JsonSchema {
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

export function jsonSchema(
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

/** `/__emu/faults/:id` as OpenAPI writes it: `/__emu/faults/{id}`. */
const templated = (path: string) => path.replace(/:(\w+)/g, '{$1}')

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

/**
 * An endpoint that answers bytes: a success is 200 with one of its media types (no envelope); a
 * refusal is the envelope, as everywhere: bad input (400), and those the contract object lists.
 */
function bytesOperation(e: BytesEndpoint): Record<string, unknown> {
  const parameters: Record<string, unknown>[] = []
  for (const [name, field] of Object.entries((e.params?.shape ?? {}) as Record<string, z.ZodType>)) {
    parameters.push({ name, in: 'path', required: true, schema: requestSchema(field) })
  }
  for (const [name, field] of Object.entries((e.query?.shape ?? {}) as Record<string, z.ZodType>)) {
    parameters.push({ name, in: 'query', required: !isOptional(field), schema: requestSchema(field) })
  }
  return {
    operationId: e.id,
    summary: e.summary,
    tags: [e.tag],
    'x-source': e.source,
    'x-fields': e.fields,
    'x-bytes': true,
    parameters,
    responses: {
      '200': {
        description: `Not the envelope: ${e.answer.description}`,
        content: Object.fromEntries(
          e.answer.types.map((type) => [
            type,
            {
              schema: type === 'text/plain' ? { type: 'string' } : { type: 'string', contentMediaType: type },
            },
          ]),
        ),
      },
      '400': refusal('Input refused (code 40000): msg names each bad field.'),
      ...Object.fromEntries(Object.entries(e.refusals).map(([status, when]) => [status, refusal(when)])),
    },
  }
}

/**
 * The push channel (docs/realtime.md): a stream of Server-Sent Events, each `event:` one of the types
 * below with its `data:` as JSON; a lost session is answered with the envelope, as everywhere.
 */
function streamOperation(e: StreamEndpoint): Record<string, unknown> {
  return {
    operationId: e.id,
    summary: e.summary,
    tags: [e.tag],
    'x-source': e.source,
    'x-stream': true,
    parameters: [
      {
        name: LAST_EVENT_ID_HEADER,
        in: 'header',
        required: false,
        description: 'The id of the last event received: the events after it are sent again, or a snapshot.',
        schema: { type: 'string' },
      },
    ],
    responses: {
      '200': {
        description:
          'Not the envelope: Server-Sent Events with ids; x-events gives the data of each event type.',
        content: { 'text/event-stream': { schema: { type: 'string' } } },
      },
      '401': refusal('No live session (code 10001).'),
    },
    'x-events': Object.fromEntries(
      Object.entries(STREAM_EVENTS).map(([type, schema]) => [type, jsonSchema(schema, 'output')]),
    ),
  }
}

/**
 * The OpenAPI 3.1 document, built from the contract alone, the same in both modes: the envelope
 * endpoints, and those that answer bytes (marked `x-bytes`).
 */
export function buildOpenApi(
  endpoints: readonly Endpoint[],
  version: string,
  bytesEndpoints: readonly BytesEndpoint[] = [],
  streamEndpoints: readonly StreamEndpoint[] = [],
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const e of endpoints) {
    const item = paths[e.path] ?? {}
    item[e.method.toLowerCase()] = operation(e)
    paths[e.path] = item
  }
  for (const e of bytesEndpoints) {
    const path = templated(e.path)
    const item = paths[path] ?? {}
    item[e.method.toLowerCase()] = bytesOperation(e)
    paths[path] = item
  }
  for (const e of streamEndpoints) {
    const item = paths[e.path] ?? {}
    item[e.method.toLowerCase()] = streamOperation(e)
    paths[e.path] = item
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Hash game web API',
      version,
      description:
        'x-source: spec = a path the upstream serves; ours = defined here. x-fields: spec = fields as the upstream documents them; ours = designed here where it shows none. Every answer is the envelope {code, msg, data}, refusals carrying data null, except the successes of the x-bytes operations, which are the bytes of an image, and of the x-stream operation, which is a stream of Server-Sent Events.',
    },
    servers: [{ url: '/' }],
    tags: [...new Set([...endpoints, ...bytesEndpoints, ...streamEndpoints].map((e) => e.tag))].map(
      (name) => ({ name }),
    ),
    paths,
  }
}

// ---------------------------------------------------------------------------------------------
// The control API (/__emu)

/** Answers of the control API other than 200, each a refusal in the envelope. */
const CONTROL_REFUSALS: Record<string, unknown> = {
  '400': refusal(
    'Input refused (code 40000): msg names each bad field. Also a reset that names no scope, or two different scopes in one call.',
  ),
  '401': refusal(`The server has an admin token and the call did not send ${ADMIN_TOKEN_HEADER} (code 401).`),
  '403': refusal(
    `A wrong ${ADMIN_TOKEN_HEADER}, or, without an admin token on the server, a call from another machine (code 403).`,
  ),
  '404': refusal('Something the call names does not exist, or the journal is off (code 40400).'),
  '409': refusal(
    'A conflict (code 40900): a recording already running, a scenario file already there, the world clock moved backwards without force, a scenario that cannot run or whose step failed. In proxy mode, also a call that needs the emulator’s data (code 40400).',
  ),
  '500': refusal('A scenario file that cannot be read (code 50000).'),
}

function controlOperation(e: ControlEndpoint): Record<string, unknown> {
  const parameters: Record<string, unknown>[] = []
  for (const [name, field] of Object.entries((e.params?.shape ?? {}) as Record<string, z.ZodType>)) {
    parameters.push({ name, in: 'path', required: true, schema: requestSchema(field) })
  }
  for (const [name, field] of Object.entries((e.query?.shape ?? {}) as Record<string, z.ZodType>)) {
    parameters.push({ name, in: 'query', required: !isOptional(field), schema: requestSchema(field) })
  }
  parameters.push({
    name: SCOPE_HEADER,
    in: 'header',
    required: false,
    description:
      'The scope the call reads or changes, as `?scope=` or a body’s `scope` would name it (they must agree); `*` or none: every scope.',
    schema: { type: 'string', minLength: 1, maxLength: 200 },
  })
  const success = jsonSchema(z.object({ code: z.literal(CODE.ok), msg: z.string(), data: e.data }), 'output')
  const op: Record<string, unknown> = {
    operationId: e.id,
    summary: e.summary,
    tags: [e.tag],
    parameters,
    responses: {
      '200': {
        description:
          'The envelope: code 1 with data on success; any other code is a refusal whose msg says why (e.g. a withdrawal already reviewed).',
        content: { 'application/json': { schema: { anyOf: [success, FAILURE] } } },
      },
      ...CONTROL_REFUSALS,
    },
  }
  if (e.emulatorOnly) {
    op.description =
      'Emulator mode only: it works on the emulator’s own data. In proxy mode it is refused (409) or not there (404).'
    op['x-emulator-only'] = true
  }
  if (e.body) {
    op.requestBody = {
      required: !isOptional(e.body),
      content: { 'application/json': { schema: requestSchema(e.body) } },
    }
  }
  return op
}

/**
 * The control API's OpenAPI 3.1 document (docs/testing.md#reference-every-call), built from its
 * contract objects alone, the same in both modes: calls that need the emulator are marked
 * `x-emulator-only`.
 */
export function buildControlOpenApi(
  endpoints: readonly ControlEndpoint[],
  version: string,
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const e of endpoints) {
    const path = templated(e.path)
    const item = paths[path] ?? {}
    item[e.method.toLowerCase()] = controlOperation(e)
    paths[path] = item
  }
  return {
    openapi: '3.1.0',
    info: {
      title: "Hash game control API (/__emu): the tester's faults, sessions, clock, scenarios and journal",
      version,
      description:
        'On in emulator mode, and in proxy mode when the server has an admin token. Every answer is the envelope {code, msg, data}: code 1 on success, a refusal carries another code and data null. x-emulator-only: the call works on the emulator’s own data.',
    },
    servers: [{ url: '/' }],
    tags: [...new Set(endpoints.map((e) => e.tag))].map((name) => ({ name })),
    components: {
      securitySchemes: {
        adminToken: {
          type: 'apiKey',
          in: 'header',
          name: ADMIN_TOKEN_HEADER,
          description:
            'Needed on every call when the server has EMU_ADMIN_TOKEN; without one, only this machine may call.',
        },
      },
    },
    // The token, or nothing when the server has none.
    security: [{ adminToken: [] }, {}],
    paths,
  }
}
