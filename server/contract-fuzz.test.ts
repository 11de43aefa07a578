import fc from 'fast-check'
import type { InjectOptions } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Endpoint } from '../shared/contract/endpoint'
import { ENDPOINTS } from '../shared/contract/registry'
import { answerSchema, failureEnvelopeSchema } from '../shared/envelope'
import { isCommonPassword } from './emulator/account/common-passwords'
import {
  invalidValue,
  type JsonSchema,
  validArbitrary,
  validObject,
} from './test-support/json-schema-arbitrary'
import { createTestApp, multipartBody, type TestApp } from './test-support/test-app'

/**
 * The contract fuzz test: requests generated from the published OpenAPI document (itself built from
 * the contract's zod schemas) go to every endpoint, logged in as the demo player. A request valid
 * per the document is never refused as bad input; one with a single bad field is refused with 400
 * naming that field; nothing answers 5xx; every answer parses with the contract's answer schema;
 * and afterwards every balance still equals the sum of its ledger rows.
 */

interface Parameter {
  name: string
  in: 'query' | 'header'
  required: boolean
  schema: JsonSchema
}

interface Operation {
  operationId: string
  parameters: Parameter[]
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> }
}

interface Request {
  query: Record<string, unknown>
  body: unknown
  idempotencyKey?: string | undefined
}

/** A request and the field made bad in it (null: none). */
interface Case {
  request: Request
  badField: string | null
}

/**
 * The fields whose valid values the document cannot fully state: a new password must also be off
 * the list of common ones (docs/security.md), which generated text sometimes is ("arguments").
 */
const NEW_PASSWORD_FIELDS = ['password', 'new_password'] as const

async function choosesCommonPassword(e: Endpoint, r: Request): Promise<boolean> {
  if (e.id !== 'register' && e.id !== 'changePassword' && e.id !== 'resetPassword') return false
  const body = (r.body ?? {}) as Record<string, unknown>
  for (const name of NEW_PASSWORD_FIELDS) {
    const value = body[name]
    if (typeof value === 'string' && (await isCommonPassword(value))) return true
  }
  return false
}

// Six of each per endpoint in the suite; `FUZZ_RUNS=500 npx vitest run server/contract-fuzz.test.ts`
// for a long hunt. A failure prints its seed and counterexample.
const VALID_RUNS = Number(process.env.FUZZ_RUNS ?? 6)
const INVALID_RUNS = Number(process.env.FUZZ_RUNS ?? 6)

let t: TestApp
let token = ''
let doc: { paths: Record<string, Record<string, Operation>> }

beforeAll(async () => {
  t = await createTestApp()
  token = (await t.login()).token
  doc = (await t.app.inject({ url: '/api-docs/json' })).json()
})
afterAll(async () => {
  await t.close()
})

const endpointById = new Map(ENDPOINTS.map((e) => [e.id, e]))

function operationOf(e: Endpoint): Operation {
  const op = doc.paths[e.path]?.[e.method.toLowerCase()]
  if (!op) throw new Error(`${e.id} is missing from the document`)
  return op
}

const queryParams = (op: Operation) => op.parameters.filter((p) => p.in === 'query')

function bodyOf(op: Operation): { mime: string; schema: JsonSchema } | null {
  const entry = op.requestBody && Object.entries(op.requestBody.content)[0]
  return entry ? { mime: entry[0], schema: entry[1].schema } : null
}

/** A valid request; its body from `bodySchema` when given (one shape of a union body). */
function validRequest(op: Operation, bodySchema?: JsonSchema): fc.Arbitrary<Request> {
  const params = queryParams(op)
  const query = validObject({
    type: 'object',
    properties: Object.fromEntries(params.map((p) => [p.name, p.schema])),
    required: params.filter((p) => p.required).map((p) => p.name),
  })
  const body = bodySchema ?? bodyOf(op)?.schema
  const keyParam = op.parameters.find((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key')
  return fc.record({
    query,
    body: body ? validArbitrary(body) : fc.constant(undefined),
    idempotencyKey: keyParam
      ? fc.option(validArbitrary(keyParam.schema) as fc.Arbitrary<string>, { nil: undefined })
      : fc.constant(undefined),
  })
}

type Spoiler = { field: string; spoil: (r: Request) => Request }

/** Every way to spoil one field of a valid request, each naming the field it spoils. */
function spoilers(op: Operation, shape: JsonSchema | null): Spoiler[] {
  const out: Spoiler[] = []
  for (const p of queryParams(op)) {
    const bad = invalidValue(p.schema)
    if (bad !== null)
      out.push({ field: p.name, spoil: (r) => ({ ...r, query: { ...r.query, [p.name]: bad } }) })
  }
  // Unknown query fields are refused where a query is defined (other endpoints ignore the query).
  if (queryParams(op).length > 0) {
    out.push({ field: '__fuzz__', spoil: (r) => ({ ...r, query: { ...r.query, __fuzz__: '1' } }) })
  }
  if (!shape) return out
  const asObject = (v: unknown) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : {})
  for (const [name, field] of Object.entries(shape.properties ?? {})) {
    const bad = invalidValue(field)
    if (bad !== null)
      out.push({ field: name, spoil: (r) => ({ ...r, body: { ...asObject(r.body), [name]: bad } }) })
    if (shape.required?.includes(name)) {
      out.push({
        field: name,
        spoil: (r) => {
          const { [name]: _dropped, ...rest } = asObject(r.body)
          return { ...r, body: rest }
        },
      })
    }
  }
  out.push({ field: '__fuzz__', spoil: (r) => ({ ...r, body: { ...asObject(r.body), __fuzz__: '1' } }) })
  return out
}

/** A valid request with one field spoiled; a body of several shapes is spoiled within one shape. */
function invalidCase(op: Operation): fc.Arbitrary<Case> | null {
  const body = bodyOf(op)?.schema
  const shapes = body ? (body.anyOf ?? body.oneOf ?? [body]).filter((s) => s.type === 'object') : []
  const cases = (shapes.length > 0 ? shapes : [null]).flatMap((shape) => {
    const all = spoilers(op, shape)
    if (all.length === 0) return []
    return [
      fc
        .tuple(validRequest(op, shape ?? undefined), fc.constantFrom(...all))
        .map(([request, { field, spoil }]) => ({ request: spoil(request), badField: field })),
    ]
  })
  return cases.length > 0 ? fc.oneof(...cases) : null
}

const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v))

function inject(e: Endpoint, mime: string | undefined, r: Request): InjectOptions {
  const qs = new URLSearchParams(
    Object.entries(r.query)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, text(v)]),
  ).toString()
  const headers: Record<string, string> = {}
  if (e.auth) headers.token = token
  if (r.idempotencyKey !== undefined) headers['idempotency-key'] = r.idempotencyKey
  const url = qs ? `${e.path}?${qs}` : e.path
  if (r.body === undefined || mime === undefined) return { method: e.method, url, headers }
  if (mime === 'application/json') {
    return {
      method: e.method,
      url,
      headers: { ...headers, 'content-type': mime },
      payload: JSON.stringify(r.body),
    }
  }
  const fields = Object.fromEntries(
    Object.entries(r.body === null ? {} : (r.body as Record<string, unknown>))
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, text(v)]),
  )
  if (mime === 'multipart/form-data') {
    const { payload, headers: h } = multipartBody(fields)
    return { method: e.method, url, headers: { ...headers, ...h }, payload }
  }
  return {
    method: e.method,
    url,
    headers: { ...headers, 'content-type': mime },
    payload: new URLSearchParams(fields).toString(),
  }
}

async function send(e: Endpoint, c: Case) {
  const op = operationOf(e)
  const res = await t.app.inject(inject(e, bodyOf(op)?.mime, c.request))
  const where = `${e.id} ${JSON.stringify(c.request)} → ${res.statusCode} ${res.body.slice(0, 300)}`
  expect(res.statusCode, where).toBeLessThan(500)
  const json = res.json()
  const parsed =
    res.statusCode === 200 ? answerSchema(e.data).safeParse(json) : failureEnvelopeSchema.safeParse(json)
  expect(parsed.error?.issues ?? [], where).toEqual([])
  if (c.badField === null) {
    expect(res.statusCode, where).not.toBe(400)
  } else {
    expect(res.statusCode, where).toBe(400)
    expect(String(json.msg), where).toContain(c.badField)
  }
  // A call that ended the session (logout, a password change elsewhere): log in again.
  if (json.code === 10001) token = (await t.login()).token
}

// Logout last, so the others run with a live session most of the time.
const ordered = [...ENDPOINTS].sort((a, b) => Number(a.id === 'logout') - Number(b.id === 'logout'))

describe('every endpoint against its published contract', () => {
  it.each(ordered.map((e) => [e.id, e] as const))('%s', async (_, e) => {
    const op = operationOf(e)
    expect(endpointById.get(op.operationId)).toBe(e)
    await fc.assert(
      fc.asyncProperty(validRequest(op), async (request) => {
        fc.pre(!(await choosesCommonPassword(e, request)))
        await send(e, { request, badField: null })
      }),
      { numRuns: VALID_RUNS, endOnFailure: true },
    )
    const invalid = invalidCase(op)
    if (invalid) {
      await fc.assert(
        fc.asyncProperty(invalid, (c) => send(e, c)),
        { numRuns: INVALID_RUNS, endOnFailure: true },
      )
    }
  })

  it('leaves every balance equal to the sum of its ledger rows', () => {
    expect(t.app.emu.ledger.drift()).toEqual([])
  })
})
