import { readFileSync } from 'node:fs'
import type { Endpoint } from '@shared/contract/endpoint'
import { ENDPOINTS } from '@shared/contract/registry'
import { CODE } from '@shared/envelope'
import { LineCounter, parseDocument } from 'yaml'
import { z } from 'zod'
import { hasMore } from '../http/paged'

/**
 * The upstream adapter: a declarative file (UPSTREAM_ADAPTER, JSON or YAML) that says how an
 * operator's backend differs from the contract, so proxy mode can translate both ways without code.
 * docs/upstream-adapter.md describes every key; this module reads, checks and applies it.
 */

/** Conversions of one answer field into the contract's type. */
const conversion = z.enum(['money', 'string', 'number', 'int', 'seconds', 'bool01'])
/** Conversions of one request field into the upstream's type. */
const requestConversion = z.enum(['number', 'string', 'int'])

/** A dot path, `[]` for every element of a list: `records[].createdAt`. */
const pathSchema = z.string().regex(/^[A-Za-z_$][\w$]*(\[\])?(\.[A-Za-z_$][\w$]*(\[\])?)*$/, {
  error: 'not a dot path such as `records[].createdAt`',
})
const valueMap = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))

const endpointAdapterSchema = z.strictObject({
  /** The upstream's path for this endpoint, when it differs. */
  path: z
    .string()
    .regex(/^\/[^\s?#]*$/, { error: 'must start with / and hold no query' })
    .optional(),
  method: z.enum(['GET', 'POST', 'PUT', 'DELETE']).optional(),
  /** How the upstream wants the request's fields: `query` (GET), or a body: urlencoded, multipart, json. */
  encoding: z.enum(['query', 'urlencoded', 'multipart', 'json']).optional(),
  request: z
    .strictObject({
      /**
       * Our field → the upstream's, applied in the order written. Dot paths reach inside a JSON
       * body (`bets[].bet_type: items[].betType`).
       */
      rename: z.record(pathSchema, pathSchema).optional(),
      /** Per field (by our path): our value → the upstream's. */
      values: z.record(pathSchema, valueMap).optional(),
      /** Per field (by our path): the type the upstream wants (amounts as numbers…). */
      types: z.record(pathSchema, requestConversion).optional(),
    })
    .optional(),
  answer: z
    .strictObject({
      /** The upstream's path → ours, inside `data`; applied in the order written. */
      rename: z.record(pathSchema, pathSchema).optional(),
      /** Per field (by our path): the conversion to the contract's type. */
      types: z.record(pathSchema, conversion).optional(),
      /** Per field (by our path): the upstream's value → ours. */
      values: z.record(pathSchema, valueMap).optional(),
      /** Fields the upstream never sends: our path → the value to fill in. */
      defaults: z.record(pathSchema, z.unknown()).optional(),
      /** A paged answer: fill `page`, `page_size` and `has_more` from the request and `total`. */
      page: z.boolean().optional(),
    })
    .optional(),
})

export const adapterSchema = z.strictObject({
  envelope: z
    .strictObject({
      /** Where the upstream puts the code, the message and the data (dot paths). */
      code: pathSchema.default('code'),
      message: pathSchema.default('msg'),
      data: pathSchema.default('data'),
      /** The upstream's codes that mean success (answered as 1) and a lost session (answered as 10001). */
      success: z.array(z.union([z.number().int(), z.string()])).default([1, 200]),
      sessionLost: z.array(z.union([z.number().int(), z.string()])).default([10001, 401]),
    })
    .default({ code: 'code', message: 'msg', data: 'data', success: [1, 200], sessionLost: [10001, 401] }),
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
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => {
      // An unknown key is found at the key itself, not at the object holding it.
      const path = i.code === 'unrecognized_keys' && i.keys[0] !== undefined ? [...i.path, i.keys[0]] : i.path
      return `${file}${at(nodeAt(path))}: ${i.path.join('.') || '(file)'}: ${i.message}`
    })
    throw new AdapterError(problems.join('\n'))
  }
  const unknown = Object.keys(parsed.data.endpoints).filter((id) => !ENDPOINTS.some((e) => e.id === id))
  if (unknown.length > 0) {
    throw new AdapterError(
      unknown
        .map(
          (id) =>
            `${file}${at(nodeAt(['endpoints', id]))}: endpoints.${id}: no such endpoint (docs/upstream.md lists them)`,
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

function convert(value: Json, to: z.infer<typeof conversion>): Json {
  switch (to) {
    case 'money': {
      const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN
      if (!Number.isFinite(n)) return value
      const text =
        typeof value === 'string' && /^-?\d+\.\d+$/.test(value) ? value : n.toFixed(Math.max(2, decimals(n)))
      return text
    }
    case 'string':
      return value === null || value === undefined ? value : String(value)
    case 'number':
      return typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))
        ? Number(value)
        : value
    case 'int':
      return typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value
    case 'seconds':
      return typeof value === 'number'
        ? Math.round(value * 1000)
        : typeof value === 'string' && /^\d+$/.test(value)
          ? Number(value) * 1000
          : value
    case 'bool01':
      return value === 1 || value === '1' || value === 'true' || value === true
        ? true
        : value === 0 || value === '0' || value === 'false' || value === false
          ? false
          : value
  }
}

/** Decimal places a number is written with (0.1 → 1), at most 6 (micro-units). */
function decimals(n: number): number {
  const text = String(n)
  const dot = text.indexOf('.')
  return dot < 0 ? 0 : Math.min(6, text.length - dot - 1)
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

/** A loaded adapter: translates calls to the upstream and answers back to the contract. */
export class Adapter {
  constructor(readonly file: AdapterFile) {}

  /** The entry for an endpoint, if the file has one. */
  forEndpoint(endpoint: Endpoint): EndpointAdapter | undefined {
    return this.file.endpoints[endpoint.id]
  }

  /**
   * Our call (its fields from the query and the body) as the upstream wants it: values, types, then
   * renames (each by our path), and `{name}` in the path filled from the field of that name.
   */
  request(endpoint: Endpoint, fields: Fields): UpstreamCall {
    const entry = this.forEndpoint(endpoint)
    const req = entry?.request
    const out = structuredClone(fields) as Record<string, Json>
    for (const [path, map] of Object.entries(req?.values ?? {})) {
      mapAll(out, path, (v) => (v !== null && v !== undefined && String(v) in map ? map[String(v)] : v))
    }
    for (const [path, to] of Object.entries(req?.types ?? {})) {
      mapAll(out, path, (v) =>
        to === 'string'
          ? v === null || v === undefined || typeof v === 'object'
            ? v
            : String(v)
          : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))
            ? Number(v)
            : v,
      )
    }
    for (const [ours, theirs] of Object.entries(req?.rename ?? {})) moveAll(out, ours, theirs)
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
   * An upstream answer (parsed JSON) as the contract's envelope: code, message and data found where
   * the file says, the codes translated, and on success `data` translated for the endpoint.
   * `query` is what the page fields are filled from.
   */
  answer(
    endpoint: Endpoint | undefined,
    upstream: Json,
    query: Fields = {},
  ): { code: number; msg: string; data: Json } {
    const env = this.file.envelope
    const first = (path: string) => getAll(upstream, path)[0]?.value
    const rawCode = first(env.code)
    const matches = (list: readonly (number | string)[]) => list.some((c) => String(c) === String(rawCode))
    const code = matches(env.success)
      ? CODE.ok
      : matches(env.sessionLost)
        ? CODE.sessionExpired
        : typeof rawCode === 'number'
          ? rawCode
          : Number.isFinite(Number(rawCode))
            ? Number(rawCode)
            : CODE.failed
    const msgValue = first(env.message)
    const msg = typeof msgValue === 'string' ? msgValue : ''
    let data: Json = first(env.data) ?? null
    const spec = endpoint ? this.forEndpoint(endpoint)?.answer : undefined
    if (code === CODE.ok && spec && data !== null && typeof data === 'object') {
      data = this.translateData(spec, structuredClone(data) as Record<string, Json>, query)
    }
    return { code, msg, data }
  }

  private translateData(
    spec: NonNullable<EndpointAdapter['answer']>,
    data: Record<string, Json>,
    query: Fields,
  ): Json {
    for (const [theirs, ours] of Object.entries(spec.rename ?? {})) moveAll(data, theirs, ours)
    for (const [path, map] of Object.entries(spec.values ?? {})) {
      mapAll(data, path, (v) => (v !== null && v !== undefined && String(v) in map ? map[String(v)] : v))
    }
    for (const [path, to] of Object.entries(spec.types ?? {})) mapAll(data, path, (v) => convert(v, to))
    for (const [path, value] of Object.entries(spec.defaults ?? {})) {
      const parent = path.includes('.') ? path.slice(0, path.lastIndexOf('.')) : ''
      const holders = parent === '' ? [{ at: [] as number[], value: data as Json }] : getAll(data, parent)
      const key = path.slice(path.lastIndexOf('.') + 1)
      for (const h of holders) {
        if (h.value !== null && typeof h.value === 'object' && !(key in (h.value as object))) {
          ;(h.value as Record<string, Json>)[key] = structuredClone(value)
        }
      }
    }
    if (spec.page) {
      const page = Number(query.page ?? 1) || 1
      const size = Number(query.page_size ?? 20) || 20
      data.page ??= page
      data.page_size ??= size
      const total =
        typeof data.total === 'number' ? data.total : Array.isArray(data.list) ? data.list.length : 0
      data.total = total
      const rows = Array.isArray(data.list) ? data.list.length : 0
      data.has_more ??= hasMore(data.page as number, data.page_size as number, rows, total)
    }
    return data
  }
}
