import { readFileSync } from 'node:fs'
import type { Endpoint } from '@shared/contract/endpoint'
import { ENDPOINTS } from '@shared/contract/registry'
import { CODE, isSessionLostCode, isSuccessCode } from '@shared/envelope'
import { LineCounter, parseDocument } from 'yaml'
import { z } from 'zod'
import { hasMore } from '../http/paged'
import { decode, encode, typeSchema } from './adapter-types'

/**
 * The upstream adapter: a declarative file (UPSTREAM_ADAPTER, JSON or YAML) that says how an
 * operator's backend differs from the contract, so proxy mode can translate both ways without code.
 * docs/upstream-adapter.md describes every key; this module reads, checks and applies it.
 */

/** A dot path, `[]` for every element of a list: `records[].createdAt`; names may hold `-` (`x-total`). */
const pathSchema = z.string().regex(/^[A-Za-z_$][\w$-]*(\[\])?(\.[A-Za-z_$][\w$-]*(\[\])?)*$/, {
  error: 'not a dot path such as `records[].createdAt`',
})
/** A dot path to one place, without lists: `result.page`. */
const placeSchema = z.string().regex(/^[A-Za-z_$][\w$-]*(\.[A-Za-z_$][\w$-]*)*$/, {
  error: 'not a dot path such as `result.records` (no `[]`)',
})
const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()])
const valueMap = z.record(z.string(), scalar)
const types = z.record(pathSchema, typeSchema)
/** A header's name (RFC 9110 token), matched whatever its case. */
const headerName = z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, { error: 'not a header name' })

/** A header's new value around ours: `Bearer {value}`. */
const template = z.string().includes('{value}', { error: 'must hold {value}, where our value goes' })

const envelopeKeys = {
  /** Where the upstream puts the code, the message and the data (dot paths). */
  code: placeSchema,
  message: placeSchema,
  data: placeSchema,
  /** A boolean the upstream sets on success (`success: true`), instead of a success code. */
  ok: placeSchema,
  /** The upstream's codes that mean success (answered as 1) and a lost session (answered as 10001). */
  success: z.array(z.union([z.number().int(), z.string(), z.boolean()])),
  sessionLost: z.array(z.union([z.number().int(), z.string()])),
}

const endpointAdapterSchema = z.strictObject({
  /** The upstream's path for this endpoint, when it differs. */
  path: z
    .string()
    .regex(/^\/[^\s?#]*$/, { error: 'must start with / and hold no query' })
    .optional(),
  method: z.enum(['GET', 'POST', 'PUT', 'DELETE']).optional(),
  /** How the upstream wants the request's fields: `query` (GET), or a body: urlencoded, multipart, json. */
  encoding: z.enum(['query', 'urlencoded', 'multipart', 'json']).optional(),
  /** This endpoint's envelope where it differs from the file's `envelope`. */
  envelope: z.strictObject(envelopeKeys).partial().optional(),
  request: z
    .strictObject({
      /** Fields our call may leave out that the upstream needs: our path → the value (before the rest). */
      defaults: z.record(pathSchema, z.unknown()).optional(),
      /** Per field (by our path): our value → the upstream's. */
      values: z.record(pathSchema, valueMap).optional(),
      /** Per field (by our path): the upstream's type (amounts as numbers…). */
      types: types.optional(),
      /**
       * Our field → the upstream's, applied in the order written. Dot paths reach inside a JSON
       * body (`bets[].bet_type: items[].betType`).
       */
      rename: z.record(pathSchema, pathSchema).optional(),
      /** Fields the upstream wants on this call whatever ours holds: its path → the value (last). */
      set: z.record(pathSchema, z.unknown()).optional(),
    })
    .optional(),
  answer: z
    .strictObject({
      /** The upstream's data (a bare list, say) placed at this path of ours (`list`), before the rest. */
      wrap: placeSchema.optional(),
      /**
       * Fields the upstream puts beside its data, in the envelope (`count` beside a bare list): the
       * path in its whole answer → ours in `data`; after `wrap`, before the rest.
       */
      fromEnvelope: z.record(placeSchema, placeSchema).optional(),
      /** The upstream's path → ours, inside `data`; applied in the order written. */
      rename: z.record(pathSchema, pathSchema).optional(),
      /** Per field (by our path): the upstream's value → ours. */
      values: z.record(pathSchema, valueMap).optional(),
      /** Per field (by our path): the upstream's type, converted to the contract's. */
      types: types.optional(),
      /** Fields the upstream never sends: our path → the value to fill in. */
      defaults: z.record(pathSchema, z.unknown()).optional(),
      /** A paged answer: fill `page`, `page_size` and `has_more` from the request and `total`. */
      page: z.boolean().optional(),
    })
    .optional(),
})

const ENVELOPE_DEFAULT = {
  code: 'code',
  message: 'msg',
  data: 'data',
  success: [1, 200],
  sessionLost: [10001, 401],
}

export const adapterSchema = z.strictObject({
  envelope: z
    .strictObject({
      code: envelopeKeys.code.default('code'),
      message: envelopeKeys.message.default('msg'),
      data: envelopeKeys.data.default('data'),
      ok: envelopeKeys.ok.optional(),
      success: envelopeKeys.success.default([1, 200]),
      sessionLost: envelopeKeys.sessionLost.default([10001, 401]),
    })
    .default(ENVELOPE_DEFAULT),
  /** Every call's headers: ours renamed (`token` → `Authorization: Bearer …`), and the upstream's constants. */
  headers: z
    .strictObject({
      rename: z
        .record(
          headerName,
          z.union([
            headerName,
            z.strictObject({ name: headerName, value: template }),
            /** Out of the headers into the call's fields (`?token=…`), the backend's name. */
            z.strictObject({ field: placeSchema, value: template.optional() }),
          ]),
        )
        .optional(),
      set: z.record(headerName, z.union([z.string(), z.number()]).transform(String)).optional(),
    })
    .optional(),
  /** Every call's fields the upstream requires whatever the endpoint (`appId`, `lang`…): its path → the value. */
  request: z.strictObject({ set: z.record(pathSchema, z.unknown()).optional() }).optional(),
  /** By endpoint id (docs/upstream.md lists them). */
  endpoints: z.record(z.string(), endpointAdapterSchema).default({}),
})

export type AdapterFile = z.infer<typeof adapterSchema>
export type EndpointAdapter = z.infer<typeof endpointAdapterSchema>

export class AdapterError extends Error {
  override name = 'AdapterError'
}

/**
 * Reads and checks an adapter file; a problem throws naming the file, the line and the key. JSON is
 * read as YAML (it is a subset of it), so both report lines the same way.
 */
export function loadAdapter(file: string, text = readFileSync(file, 'utf8')): Adapter {
  const lines = new LineCounter()
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false })
  const at = (offset: number | undefined) => (offset === undefined ? '' : `:${lines.linePos(offset).line}`)
  if (doc.errors.length > 0) {
    const e = doc.errors[0]
    throw new AdapterError(`${file}${at(e?.pos[0])}: ${e?.message.split('\n')[0]}`)
  }
  const parsed = adapterSchema.safeParse(doc.toJS())
  const nodeAt = (path: readonly PropertyKey[]) => {
    for (let n = path.length; n >= 0; n--) {
      const node = doc.getIn(path.slice(0, n) as unknown[], true) as { range?: [number, number] } | undefined
      if (node?.range) return node.range[0]
      // A key's own position, when the value is a scalar
      const parent = doc.getIn(path.slice(0, Math.max(0, n - 1)) as unknown[], true) as
        | { items?: { key: { value?: unknown; range?: [number, number] } }[] }
        | undefined
      const key = parent?.items?.find((i) => i.key?.value === path[n - 1])?.key
      if (key?.range) return key.range[0]
    }
    return undefined
  }
  /** Where a key of the map at `path` is written. */
  const keyAt = (path: readonly PropertyKey[], key: string) => {
    const map = doc.getIn(path as unknown[], true) as
      | { items?: { key: { value?: unknown; range?: [number, number] } }[] }
      | undefined
    return map?.items?.find((i) => i.key?.value === key)?.key?.range?.[0]
  }
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => {
      // An unknown key is found at the key itself, not at the object holding it.
      const path = i.code === 'unrecognized_keys' && i.keys[0] !== undefined ? [...i.path, i.keys[0]] : i.path
      // A bad key of a map (a path that is not a dot path): the key's own problem, not "Invalid key".
      const message = i.code === 'invalid_key' ? (i.issues[0]?.message ?? i.message) : i.message
      return `${file}${at(nodeAt(path))}: ${i.path.join('.') || '(file)'}: ${message}`
    })
    throw new AdapterError(problems.join('\n'))
  }
  const unknown = Object.keys(parsed.data.endpoints).filter((id) => !ENDPOINTS.some((e) => e.id === id))
  if (unknown.length > 0) {
    throw new AdapterError(
      unknown
        .map(
          (id) =>
            `${file}${at(keyAt(['endpoints'], id) ?? nodeAt(['endpoints', id]))}: endpoints.${id}: no such endpoint (docs/upstream.md lists them)`,
        )
        .join('\n'),
    )
  }
  return new Adapter(parsed.data)
}

type Json = unknown

/** Every value at a path with `[]`, with the list positions it was found at. */
function getAll(root: Json, path: string): { at: number[]; value: Json }[] {
  const out: { at: number[]; value: Json }[] = []
  const parts = path.split('.')
  const walk = (node: Json, i: number, at: number[]) => {
    if (i === parts.length) {
      out.push({ at, value: node })
      return
    }
    if (node === null || typeof node !== 'object') return
    const part = parts[i] as string
    const list = part.endsWith('[]')
    const key = list ? part.slice(0, -2) : part
    if (!(key in (node as Record<string, Json>))) return
    const next = (node as Record<string, Json>)[key]
    if (!list) return walk(next, i + 1, at)
    if (Array.isArray(next)) {
      for (const [n, item] of next.entries()) walk(item, i + 1, [...at, n])
    }
  }
  walk(root, 0, [])
  return out
}

/** Sets a value at a path with `[]`, the list positions taken from `at` in order; makes what is missing. */
function setAt(root: Record<string, Json>, path: string, at: readonly number[], value: Json): void {
  const parts = path.split('.')
  let node: Record<string, Json> = root
  let n = 0
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string
    const list = part.endsWith('[]')
    const key = list ? part.slice(0, -2) : part
    const last = i === parts.length - 1
    if (!list) {
      if (last) {
        node[key] = value
        return
      }
      if (node[key] === null || typeof node[key] !== 'object') node[key] = {}
      node = node[key] as Record<string, Json>
      continue
    }
    if (!Array.isArray(node[key])) node[key] = []
    const arr = node[key] as Json[]
    const index = at[n++] ?? 0
    if (last) {
      arr[index] = value
      return
    }
    if (arr[index] === null || typeof arr[index] !== 'object') arr[index] = {}
    node = arr[index] as Record<string, Json>
  }
}

/** Removes the values at a path with `[]`. */
function removeAll(root: Json, path: string): void {
  const cut = path.lastIndexOf('.')
  const parentPath = cut < 0 ? '' : path.slice(0, cut)
  const key = cut < 0 ? path : path.slice(cut + 1)
  const parents = parentPath === '' ? [{ at: [], value: root }] : getAll(root, parentPath)
  for (const { value } of parents) {
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      delete (value as Record<string, Json>)[key]
  }
}

/** Moves every value at one path to another, list positions kept. */
function moveAll(root: Record<string, Json>, from: string, to: string): void {
  const found = getAll(root, from)
  if (found.length === 0) return
  removeAll(root, from)
  for (const { at, value } of found) setAt(root, to, at, value)
}

/** Our path, `[]` and all, in the `data` of one answer: every value there replaced by `f` of it. */
function mapAll(root: Record<string, Json>, path: string, f: (v: Json) => Json): void {
  for (const { at, value } of getAll(root, path)) setAt(root, path, at, f(value))
}

/** Fills `value` at a path (with `[]`) wherever its holder lacks the last key; makes what is missing. */
function fillAll(root: Record<string, Json>, path: string, value: Json, always: boolean): void {
  const cut = path.lastIndexOf('.')
  const parent = cut < 0 ? '' : path.slice(0, cut)
  const key = path.slice(cut + 1)
  if (parent !== '' && !parent.includes('[]') && getAll(root, parent).length === 0)
    setAt(root, parent, [], {})
  const holders = parent === '' ? [{ at: [] as number[], value: root as Json }] : getAll(root, parent)
  for (const h of holders) {
    if (h.value === null || typeof h.value !== 'object' || Array.isArray(h.value)) continue
    const holder = h.value as Record<string, Json>
    if (always || !(key in holder) || holder[key] === undefined) holder[key] = structuredClone(value)
  }
}

/**
 * Fields of a request as the proxy reads them: text from a query or a form, any JSON value (lists
 * and objects too) from a JSON body.
 */
export type Fields = Record<string, Json>

/** The upstream's shape of one call, from ours. */
export interface UpstreamCall {
  method: string
  path: string
  encoding: 'query' | 'urlencoded' | 'multipart' | 'json'
  fields: Record<string, Json>
}

/** Request headers as a plain object, names in lower case (Node's IncomingHttpHeaders, say). */
export type HeaderBag = Record<string, string | string[] | undefined>

const mapValue = (map: Record<string, Json>) => (v: Json) =>
  v !== null && v !== undefined && typeof v !== 'object' && String(v) in map ? map[String(v)] : v

/** A loaded adapter: translates calls to the upstream and answers back to the contract. */
export class Adapter {
  constructor(readonly file: AdapterFile) {}

  /** The entry for an endpoint, if the file has one. */
  forEndpoint(endpoint: Endpoint): EndpointAdapter | undefined {
    return this.file.endpoints[endpoint.id]
  }

  /**
   * Our call (its fields from the query and the body) as the upstream wants it: defaults, values,
   * types (each by our path), renames, then the fields set for every call and for this one and
   * those `headers` moved out of the headers, and `{name}` in the path filled from the field of
   * that name.
   */
  request(endpoint: Endpoint, fields: Fields, fromHeaders: Fields = {}): UpstreamCall {
    const entry = this.forEndpoint(endpoint)
    const req = entry?.request
    const out = structuredClone(fields) as Record<string, Json>
    for (const [path, value] of Object.entries(req?.defaults ?? {})) fillAll(out, path, value, false)
    for (const [path, map] of Object.entries(req?.values ?? {})) mapAll(out, path, mapValue(map))
    for (const [path, type] of Object.entries(req?.types ?? {})) mapAll(out, path, (v) => encode(v, type))
    for (const [ours, theirs] of Object.entries(req?.rename ?? {})) moveAll(out, ours, theirs)
    for (const set of [this.file.request?.set, req?.set, fromHeaders]) {
      for (const [path, value] of Object.entries(set ?? {})) fillAll(out, path, value, true)
    }
    const method = entry?.method ?? endpoint.method
    let path = entry?.path ?? endpoint.path
    path = path.replace(/\{([A-Za-z_$][\w$]*)\}/g, (_, name: string) => {
      const value = out[name]
      delete out[name]
      return encodeURIComponent(value === undefined || value === null ? '' : String(value))
    })
    return {
      method,
      path,
      encoding: entry?.encoding ?? (method === 'GET' ? 'query' : (endpoint.encoding ?? 'urlencoded')),
      fields: out,
    }
  }

  /**
   * A call's headers as the upstream wants them (the file's `headers`), changed in place: ours
   * renamed, their value written into a template where one is given (`Bearer {value}`), then the
   * upstream's constants set. Names are matched whatever their case; `headers` holds them in lower
   * case. Returns the headers moved into the call's fields (`token` → `?token=`), for `request`.
   */
  headers(headers: HeaderBag): Fields {
    const spec = this.file.headers
    const fields: Fields = {}
    for (const [from, to] of Object.entries(spec?.rename ?? {})) {
      const value = headers[from.toLowerCase()]
      if (value === undefined) continue
      delete headers[from.toLowerCase()]
      const text = Array.isArray(value) ? value.join(', ') : value
      if (typeof to === 'string') headers[to.toLowerCase()] = text
      else if ('name' in to) headers[to.name.toLowerCase()] = to.value.replaceAll('{value}', text)
      else fields[to.field] = to.value === undefined ? text : to.value.replaceAll('{value}', text)
    }
    for (const [name, value] of Object.entries(spec?.set ?? {})) headers[name.toLowerCase()] = value
    return fields
  }

  /** The envelope for an endpoint: the file's, with the endpoint's own keys over it. */
  private envelopeFor(endpoint: Endpoint | undefined) {
    const own = endpoint ? this.forEndpoint(endpoint)?.envelope : undefined
    return own ? { ...this.file.envelope, ...own } : this.file.envelope
  }

  /**
   * An upstream answer (parsed JSON) as the contract's envelope: code, message and data found where
   * the file says, the codes translated, and on success `data` translated for the endpoint.
   * `query` is what the page fields are filled from.
   */
  answer(
    endpoint: Endpoint | undefined,
    upstream: Json,
    query: Fields = {},
  ): { code: number; msg: string; data: Json } {
    const env = this.envelopeFor(endpoint)
    const first = (path: string) => getAll(upstream, path)[0]?.value
    const rawCode = first(env.code)
    const matches = (list: readonly (number | string | boolean)[]) =>
      rawCode !== undefined && list.some((c) => String(c) === String(rawCode))
    const flag = env.ok === undefined ? undefined : first(env.ok)
    const ok = env.ok === undefined ? matches(env.success) : flag === true || flag === 1 || flag === 'true'
    const own =
      typeof rawCode === 'number' && Number.isInteger(rawCode)
        ? rawCode
        : typeof rawCode === 'string' && /^-?\d+$/.test(rawCode.trim())
          ? Number(rawCode)
          : CODE.failed
    // A refusal whose own code is one the app reads as success or as a lost session (a backend whose
    // failure code is 1, say) goes as a plain refusal: never as a success, never as a logout.
    const code = ok
      ? CODE.ok
      : matches(env.sessionLost)
        ? CODE.sessionExpired
        : isSuccessCode(own) || isSessionLostCode(own)
          ? CODE.failed
          : own
    const msgValue = first(env.message)
    const msg = typeof msgValue === 'string' ? msgValue : ''
    let data: Json = first(env.data) ?? null
    const spec = endpoint ? this.forEndpoint(endpoint)?.answer : undefined
    if (code === CODE.ok && spec) {
      if (spec.wrap !== undefined) {
        const wrapped: Record<string, Json> = {}
        setAt(wrapped, spec.wrap, [], data)
        data = wrapped
      }
      if (data !== null && typeof data === 'object' && !Array.isArray(data)) {
        data = structuredClone(data) as Record<string, Json>
        for (const [theirs, ours] of Object.entries(spec.fromEnvelope ?? {})) {
          const value = first(theirs)
          if (value !== undefined) setAt(data as Record<string, Json>, ours, [], structuredClone(value))
        }
        data = this.translateData(spec, data as Record<string, Json>, query)
      }
    }
    return { code, msg, data }
  }

  private translateData(
    spec: NonNullable<EndpointAdapter['answer']>,
    data: Record<string, Json>,
    query: Fields,
  ): Json {
    for (const [theirs, ours] of Object.entries(spec.rename ?? {})) moveAll(data, theirs, ours)
    for (const [path, map] of Object.entries(spec.values ?? {})) mapAll(data, path, mapValue(map))
    for (const [path, type] of Object.entries(spec.types ?? {})) mapAll(data, path, (v) => decode(v, type))
    for (const [path, value] of Object.entries(spec.defaults ?? {})) fillAll(data, path, value, false)
    if (spec.page) {
      // Numbers the upstream wrote as text ("2") read as numbers; missing ones taken from the call and
      // the list. Anything else stays as it came, for the contract watch to name.
      const fill = (key: 'page' | 'page_size' | 'total', missing: () => number) => {
        const v = data[key]
        data[key] = v === undefined || v === null ? missing() : decode(v, 'int')
      }
      fill('page', () => Number(query.page ?? 1) || 1)
      fill('page_size', () => Number(query.page_size ?? 20) || 20)
      fill('total', () => (Array.isArray(data.list) ? data.list.length : 0))
      const total = typeof data.total === 'number' ? data.total : 0
      const rows = Array.isArray(data.list) ? data.list.length : 0
      data.has_more ??= hasMore(data.page as number, data.page_size as number, rows, total)
    }
    return data
  }
}
