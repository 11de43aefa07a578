import type { z } from 'zod'
import { jsonSchema } from '../openapi'

/**
 * Comparing an answer with the contract, field by field: every difference names the field, what
 * the contract expects and what came. Used by `npm run upstream:check` (scripts/upstream-check.ts)
 * and by proxy mode's contract monitor (./contract-monitor.ts).
 */

export interface Mismatch {
  /** Where in the answer: `code`, `data.list[0].amount`, `(http status)`, `(body)`. */
  path: string
  expected: string
  got: string
  /** A field the contract does not have: the app ignores it, so it does not fail conformance. */
  extra?: true
  /** How many array items had the same mismatch (the path names the first). */
  times?: number
}

/** A value in a few words, for the `got` side. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'missing'
  if (value === null) return 'null'
  if (Array.isArray(value)) return `array (${value.length} items)`
  if (typeof value === 'string') {
    const text = value.length > 40 ? `${value.slice(0, 40)}…` : value
    return `string ${JSON.stringify(text)}`
  }
  if (typeof value === 'object') return 'object'
  return `${typeof value} ${String(value)}`
}

const pathText = (prefix: string, path: readonly PropertyKey[]): string =>
  path.reduce<string>(
    (out, key) => (typeof key === 'number' ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)),
    prefix,
  )

/** What an issue says was expected, in words. */
function expectedOf(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      // A required field of any type (the envelope's `data`) that is missing: zod says "nonoptional".
      return issue.expected === 'int'
        ? 'integer'
        : issue.expected === 'nonoptional'
          ? 'a value'
          : issue.expected
    case 'invalid_format': {
      const pattern = 'pattern' in issue && typeof issue.pattern === 'string' ? ` ${issue.pattern}` : ''
      return issue.format === 'regex'
        ? `string matching${pattern}`
        : `string in format ${issue.format}${pattern}`
    }
    case 'invalid_value':
      return issue.values.length === 1
        ? JSON.stringify(issue.values[0])
        : `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`
    case 'too_small':
      return `${issue.origin} ${issue.inclusive === false ? '>' : '≥'} ${String(issue.minimum)}`
    case 'too_big':
      return `${issue.origin} ${issue.inclusive === false ? '<' : '≤'} ${String(issue.maximum)}`
    default:
      return issue.message
  }
}

/** The issues of a value against a schema, unions resolved to what their branches expect. */
export function flatten(
  issues: readonly z.core.$ZodIssue[],
  root: unknown,
  prefix: readonly PropertyKey[] = [],
) {
  const out: { path: PropertyKey[]; expected: string; got: unknown }[] = []
  for (const issue of issues) {
    const path = [...prefix, ...issue.path]
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const fewest = Math.min(...issue.errors.map((e) => e.length))
      const closest = issue.errors.filter((e) => e.length === fewest)
      const single = closest.every((e) => e.length === 1 && e[0]?.path.length === 0)
      if (fewest > 0 && closest.length > 1 && single) {
        // Every branch fails on the value itself (a union of literals, say): any of them would do.
        const alternatives = [...new Set(closest.map((e) => (e[0] ? expectedOf(e[0]) : '')))]
        out.push({ path, expected: alternatives.join(' or '), got: valueAt(root, path) })
        continue
      }
      if (fewest > 0 && closest[0]) {
        out.push(...flatten(closest[0], root, path))
        continue
      }
    }
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        out.push({ path: [...path, key], expected: 'no such field', got: valueAt(root, [...path, key]) })
      }
      continue
    }
    out.push({ path, expected: expectedOf(issue), got: valueAt(root, path) })
  }
  return out
}

export function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined
    value = (value as Record<PropertyKey, unknown>)[key]
  }
  return value
}

/** Mismatches repeated over array items folded into one, with how many times it came. */
function fold(mismatches: readonly Mismatch[]): Mismatch[] {
  const seen = new Map<string, Mismatch>()
  for (const m of mismatches) {
    const key = `${m.path.replace(/\[\d+\]/g, '[]')}\u0000${m.expected}\u0000${m.extra ? 1 : 0}`
    const first = seen.get(key)
    if (first) first.times = (first.times ?? 1) + 1
    else seen.set(key, { ...m })
  }
  return [...seen.values()]
}

type Json = Record<string, unknown>

/** The variant of a JSON Schema a value takes (a nullable object is an object when it is one). */
function variantFor(schema: Json, value: unknown): Json | null {
  const variants = (schema.anyOf ?? schema.oneOf) as Json[] | undefined
  if (!variants) return schema
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value
  return variants.find((v) => v.type === type || (type === 'number' && v.type === 'integer')) ?? null
}

/** Fields the answer has and the contract does not. */
function extras(schema: Json, value: unknown, path: string): Mismatch[] {
  const s = variantFor(schema, value)
  if (!s || value === null || typeof value !== 'object') return []
  if (Array.isArray(value)) {
    const items = s.items as Json | undefined
    return items ? value.flatMap((item, i) => extras(items, item, `${path}[${i}]`)) : []
  }
  const properties = s.properties as Record<string, Json> | undefined
  if (!properties) return []
  const out: Mismatch[] = []
  for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
    const at = path ? `${path}.${key}` : key
    const known = properties[key]
    if (known) out.push(...extras(known, field, at))
    else
      out.push({
        path: at,
        expected: 'no such field in the contract',
        got: describeValue(field),
        extra: true,
      })
  }
  return out
}

/** Every difference between a value and a schema; `prefix` leads each path (e.g. `data`). */
export function compareWithSchema(schema: z.ZodType, value: unknown, prefix = ''): Mismatch[] {
  const result = schema.safeParse(value, { reportInput: true })
  const wrong = result.success
    ? []
    : flatten(result.error.issues, value).map(({ path, expected, got }) => ({
        path: pathText(prefix, path),
        expected,
        got: describeValue(got),
      }))
  const unknown = extras(jsonSchema(schema, 'output'), value, prefix)
  return fold([...wrong, ...unknown])
}
