import type { FieldTest } from '@shared/emu-control'

export { parseFieldTest } from '@shared/emu-control'

/**
 * The parts of a request rules and journal filters look at: query parameters, headers and body
 * fields, each a flat map from a name to its values. Body fields come from a JSON body (nested
 * keys as dot paths, `items.0.id`), an urlencoded form or a multipart form's text fields.
 */
export type Fields = ReadonlyMap<string, readonly string[]>

/** Most fields read from one body, and most characters kept of one value. */
const MAX_FIELDS = 200
const MAX_VALUE = 1024

function add(map: Map<string, string[]>, name: string, value: string): void {
  if (map.size >= MAX_FIELDS && !map.has(name)) return
  const v = value.length > MAX_VALUE ? value.slice(0, MAX_VALUE) : value
  const list = map.get(name)
  if (list) list.push(v)
  else map.set(name, [v])
}

export function queryFields(url: string): Fields {
  const map = new Map<string, string[]>()
  const q = url.indexOf('?')
  if (q < 0) return map
  for (const [k, v] of new URLSearchParams(url.slice(q + 1))) add(map, k, v)
  return map
}

export function headerFields(headers: Record<string, string | string[] | undefined>): Fields {
  const map = new Map<string, string[]>()
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue
    for (const one of Array.isArray(v) ? v : [v]) add(map, k.toLowerCase(), one)
  }
  return map
}

function flatten(map: Map<string, string[]>, prefix: string, value: unknown, depth: number): void {
  if (depth > 8) return
  if (value === null || typeof value !== 'object') {
    if (prefix !== '') add(map, prefix, value === null ? 'null' : String(value))
    return
  }
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value)
  for (const [k, v] of entries) flatten(map, prefix === '' ? k : `${prefix}.${k}`, v, depth + 1)
}

/** The fields of a body, read by its content type; empty when it has none or cannot be read. */
export function bodyFields(body: Buffer | string, contentType: string | undefined): Fields {
  const map = new Map<string, string[]>()
  if (body.length === 0) return map
  const text = typeof body === 'string' ? body : body.toString('utf8')
  const type = (contentType ?? '').toLowerCase()
  if (type.includes('json')) {
    try {
      flatten(map, '', JSON.parse(text), 0)
    } catch {
      // Not JSON after all: no fields.
    }
  } else if (type.includes('x-www-form-urlencoded')) {
    for (const [k, v] of new URLSearchParams(text)) add(map, k, v)
  } else if (type.includes('multipart/form-data')) {
    const boundary = /boundary="?([^";]+)"?/i.exec(contentType ?? '')?.[1]
    if (boundary) {
      for (const part of text.split(`--${boundary}`)) {
        const split = part.indexOf('\r\n\r\n')
        if (split < 0) continue
        const head = part.slice(0, split)
        const name = /name="([^"]*)"/i.exec(head)?.[1]
        if (name === undefined || /filename=/i.test(head)) continue
        add(map, name, part.slice(split + 4).replace(/\r\n$/, ''))
      }
    }
  }
  return map
}

/** A field test, compiled: does this map satisfy it? */
export type FieldCheck = (fields: Fields) => boolean

/** Compiles one named test; equality compares text, so `5` and `"5"` are the same. */
export function fieldCheck(name: string, test: FieldTest): FieldCheck {
  const key = name
  if (typeof test !== 'object') {
    const want = String(test)
    return (f) => f.get(key)?.includes(want) ?? false
  }
  if ('present' in test) {
    const want = test.present
    return (f) => (f.get(key) !== undefined) === want
  }
  if ('matches' in test) {
    const re = new RegExp(test.matches)
    return (f) => f.get(key)?.some((v) => re.test(v)) ?? false
  }
  const want = String(test.equals)
  return (f) => f.get(key)?.includes(want) ?? false
}

export function fieldChecks(tests: Record<string, FieldTest> | undefined, lowerNames = false): FieldCheck[] {
  if (!tests) return []
  return Object.entries(tests).map(([name, t]) => fieldCheck(lowerNames ? name.toLowerCase() : name, t))
}
