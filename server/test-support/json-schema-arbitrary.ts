import fc from 'fast-check'

/** The part of JSON Schema that z.toJSONSchema writes for the contract's request fields. */
export interface JsonSchema {
  type?: string | string[]
  enum?: unknown[]
  const?: unknown
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  pattern?: string
  minLength?: number
  maxLength?: number
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number
  exclusiveMaximum?: number
  properties?: Record<string, JsonSchema>
  required?: string[]
  additionalProperties?: boolean | JsonSchema
  items?: JsonSchema
  /** Values the document gives as valid: used where a pattern alone cannot make one (a checksum). */
  examples?: unknown[]
  minItems?: number
  maxItems?: number
}

const codePoints = (s: string) => [...s].length

/** Values valid per the schema. Unbounded strings and arrays are kept short so requests stay small. */
export function validArbitrary(s: JsonSchema): fc.Arbitrary<unknown> {
  if (s.const !== undefined) return fc.constant(s.const)
  if (s.enum) return fc.constantFrom(...s.enum)
  if (s.examples?.length) return fc.constantFrom(...s.examples)
  const alternatives = s.anyOf ?? s.oneOf
  if (alternatives) return fc.oneof(...alternatives.map(validArbitrary))
  switch (s.type) {
    case 'string': {
      const min = s.minLength ?? 0
      const max = s.maxLength ?? Math.max(min, 24)
      const base = s.pattern
        ? fc.stringMatching(new RegExp(s.pattern))
        : fc.string({ unit: 'binary', minLength: min, maxLength: Math.min(max, min + 40) })
      return base.filter((v) => codePoints(v) >= min && codePoints(v) <= max)
    }
    case 'integer': {
      const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : -1_000_000)
      const max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : 1_000_000)
      return fc.oneof(
        fc.constantFrom(min, max),
        fc.integer({
          min: Math.max(min, Number.MIN_SAFE_INTEGER),
          max: Math.min(max, Number.MAX_SAFE_INTEGER),
        }),
      )
    }
    case 'number':
      return fc.double({ min: s.minimum ?? -1e6, max: s.maximum ?? 1e6, noNaN: true })
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
    case 'array':
      return fc.array(validArbitrary(s.items ?? {}), {
        minLength: s.minItems ?? 0,
        maxLength: Math.min(s.maxItems ?? 3, (s.minItems ?? 0) + 3),
      })
    case 'object':
      return validObject(s)
    default:
      return fc.constant('x')
  }
}

export function validObject(s: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  const props = s.properties ?? {}
  const arbs: Record<string, fc.Arbitrary<unknown>> = {}
  for (const [name, schema] of Object.entries(props)) arbs[name] = validArbitrary(schema)
  return fc.record(arbs, { requiredKeys: (s.required ?? []).filter((k) => k in props) })
}

/** A value the schema refuses, or null when there is none to give (any string is fine, say). */
export function invalidValue(s: JsonSchema): unknown {
  if (s.enum || s.const !== undefined) return 'zz-not-an-option'
  const alternatives = s.anyOf ?? s.oneOf
  if (alternatives) return alternatives.every((a) => a.type === 'object') ? 'not-an-object' : null
  switch (s.type) {
    case 'string':
      if (s.minLength !== undefined && s.minLength > 0) return ''
      if (s.maxLength !== undefined) return 'z'.repeat(s.maxLength + 1)
      if (s.pattern) {
        const re = new RegExp(s.pattern)
        return ['!', 'zz!', '-1', ''].find((v) => !re.test(v)) ?? null
      }
      return null
    case 'integer':
      if (s.minimum !== undefined) return s.minimum - 1
      if (s.exclusiveMinimum !== undefined) return s.exclusiveMinimum
      return 'abc'
    case 'number':
      return 'abc'
    case 'array':
      return s.minItems ? [] : 'not-a-list'
    default:
      return null
  }
}
