/**
 * Hand-written readers for values whose zod schemas the reading code must not load: the client's
 * first screen (stored values, the first answers it reads) runs before zod does. Each reader reads a
 * value as its schema parses it, or gives null where the schema would fail; a test next to each user
 * holds the reader to its schema.
 */

export type Check = (value: unknown) => boolean

/** z.number().int(): a safe integer. */
export const int: Check = (value) => Number.isSafeInteger(value)
/** z.number().int().positive() */
export const positiveInt: Check = (value) => int(value) && (value as number) > 0
export const string: Check = (value) => typeof value === 'string'
export const boolean: Check = (value) => typeof value === 'boolean'
/** z.unknown(): anything, absent included. */
export const unknown: Check = () => true
export const optional =
  (check: Check): Check =>
  (value) =>
    value === undefined || check(value)

/** `value` as an object with these fields (other keys dropped, as z.object drops them), or null. */
export function readObject<T extends object>(value: unknown, fields: { [K in keyof T]-?: Check }): T | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null
  const source = value as Record<string, unknown>
  const out: Record<string, unknown> = {}
  for (const [key, check] of Object.entries<Check>(fields)) {
    if (!check(source[key])) return null
    if (key in source) out[key] = source[key]
  }
  return out as T
}

/** `value` as an array whose every item `read` accepts (z.array), or null. */
export function readArray<T>(value: unknown, read: (item: unknown) => T | null): T[] | null {
  if (!Array.isArray(value)) return null
  const out: T[] = []
  for (const item of value) {
    const entry = read(item)
    if (entry === null) return null
    out.push(entry)
  }
  return out
}
