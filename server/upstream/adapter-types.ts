import { z } from 'zod'

/**
 * The adapter's field types (docs/upstream-adapter.md, "Types"). A type names the upstream's form of
 * a value; `decode` turns that form into the contract's (an answer), `encode` turns the contract's
 * into it (a call). A value that is not in the expected form passes unchanged, so the contract watch
 * and `upstream:check` name it as it came.
 */

export const TYPE_NAMES = [
  'money',
  'cents',
  'string',
  'number',
  'int',
  'seconds',
  'datetime',
  'bool01',
  'yn',
  'csv',
  'csv-int',
  'from0',
] as const
export type TypeName = (typeof TYPE_NAMES)[number]

const typeName = z.enum(TYPE_NAMES)

/** A type: its name, or `{ type, scale | zone | separator }` for the types that take an option. */
export const typeSchema = z.union(
  [
    typeName,
    z
      .strictObject({
        type: typeName,
        /** money: the upstream counts in units this many times smaller (100: cents); a power of 10. */
        scale: z
          .number()
          .int()
          .refine((n) => /^10*$/.test(String(n)), { error: 'a power of 10: 10, 100, 1000000…' })
          .optional(),
        /** datetime: the zone the upstream's text is written in; `+08:00` when not given. */
        zone: z
          .string()
          .regex(/^[+-]\d{2}:\d{2}$/, { error: 'an offset such as +08:00' })
          .optional(),
        /** csv, csv-int: what separates the items; `,` when not given. */
        separator: z.string().min(1).optional(),
      })
      .superRefine((t, ctx) => {
        const allowed: Record<string, TypeName[]> = {
          scale: ['money', 'cents'],
          zone: ['datetime'],
          separator: ['csv', 'csv-int'],
        }
        for (const [option, types] of Object.entries(allowed)) {
          if (option in t && !types.includes(t.type)) {
            ctx.addIssue({
              code: 'custom',
              path: [option],
              message: `\`${option}\` goes with ${types.join(' or ')}, not ${t.type}`,
            })
          }
        }
      }),
  ],
  { error: `not a type: one of ${TYPE_NAMES.join(', ')}, or { type: …, scale | zone | separator: … }` },
)
export type TypeSpec = z.infer<typeof typeSchema>

interface Resolved {
  name: TypeName
  scale: number
  zoneMinutes: number
  separator: string
}

function resolve(spec: TypeSpec): Resolved {
  const t = typeof spec === 'string' ? { type: spec } : spec
  const zone = ('zone' in t && t.zone) || '+08:00'
  const sign = zone.startsWith('-') ? -1 : 1
  return {
    name: t.type,
    scale: ('scale' in t && t.scale) || (t.type === 'cents' ? 100 : 1),
    zoneMinutes: sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6))),
    separator: ('separator' in t && t.separator) || ',',
  }
}

type Json = unknown

const NUMBER_TEXT = /^-?\d+(\.\d+)?$/
/** 1,234,567.89: thousands separated by commas (never a list: each group after the first has 3 digits). */
const THOUSANDS = /^-?\d{1,3}(,\d{3})+(\.\d+)?$/

/** A number the upstream wrote as a number or as text (with thousand separators), or null. */
function numberText(value: Json): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? numberToText(value) : null
  if (typeof value !== 'string') return null
  const text = value.trim()
  if (NUMBER_TEXT.test(text)) return text
  if (THOUSANDS.test(text)) return text.replaceAll(',', '')
  return null
}

/**
 * A number as plain decimal text, at most 6 places (amounts are micro-units at the finest), so that
 * a binary fraction such as 0.1 + 0.2 reads "0.3".
 */
function numberToText(n: number): string {
  const text = String(Number(n.toFixed(6)))
  return /e/i.test(text) ? n.toFixed(6).replace(/\.?0+$/, '') : text
}

/** Decimal text divided by a power of 10, exactly (no binary fractions on the way). */
function divide(text: string, scale: number): string {
  const places = String(scale).length - 1
  if (places === 0) return text
  const negative = text.startsWith('-')
  const [whole = '0', fraction = ''] = (negative ? text.slice(1) : text).split('.')
  const digits = whole.padStart(places + 1, '0')
  const cut = digits.length - places
  const out = `${digits.slice(0, cut).replace(/^0+(?=\d)/, '')}.${digits.slice(cut)}${fraction}`
  return negative ? `-${out}` : out
}

/** Decimal text multiplied by a power of 10, exactly. */
function multiply(text: string, scale: number): string {
  const places = String(scale).length - 1
  const negative = text.startsWith('-')
  const [whole = '0', fraction = ''] = (negative ? text.slice(1) : text).split('.')
  const moved = `${whole}${fraction.padEnd(places, '0').slice(0, places)}`
  const rest = fraction.slice(places)
  const out = `${moved.replace(/^0+(?=\d)/, '')}${rest ? `.${rest}` : ''}`
  return negative && /[1-9]/.test(out) ? `-${out}` : out
}

/** An amount as the contract writes it: decimal text with at least 2 places ("12.50", "0.000001"). */
function moneyText(text: string): string {
  const [whole, fraction = ''] = text.split('.')
  const trimmed = fraction.replace(/0+$/, '')
  return `${whole}.${trimmed.padEnd(2, '0')}`
}

const TRUE = new Set(['1', 'true', 'y', 'yes'])
const FALSE = new Set(['0', 'false', 'n', 'no'])

function truth(value: Json): boolean | null {
  if (typeof value === 'boolean') return value
  if (typeof value !== 'number' && typeof value !== 'string') return null
  const text = String(value).trim().toLowerCase()
  return TRUE.has(text) ? true : FALSE.has(text) ? false : null
}

/** "2026-11-28 10:30:00" (also with T, with / in the date, without seconds, or a date alone). */
const DATETIME =
  /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/

function parseDatetime(text: string, zoneMinutes: number): number | null {
  const m = DATETIME.exec(text.trim())
  if (!m) return null
  const [, y, mo, d, h = '0', mi = '0', s = '0', ms = '0', zone] = m
  let offset = zoneMinutes
  if (zone === 'Z') offset = 0
  else if (zone) {
    const digits = zone.replace(':', '')
    offset =
      (digits.startsWith('-') ? -1 : 1) * (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5)))
  }
  const utc = Date.UTC(
    Number(y),
    Number(mo) - 1,
    Number(d),
    Number(h),
    Number(mi),
    Number(s),
    Number(ms.padEnd(3, '0')),
  )
  return Number.isFinite(utc) ? utc - offset * 60_000 : null
}

function formatDatetime(ms: number, zoneMinutes: number): string {
  const d = new Date(ms + zoneMinutes * 60_000)
  const two = (n: number) => String(n).padStart(2, '0')
  return (
    `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} ` +
    `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`
  )
}

/** An integer the value holds (a number or integer text), or null. */
function integer(value: Json): number | null {
  if (typeof value === 'number') return Number.isInteger(value) ? value : null
  return typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : null
}

/** The upstream's form → the contract's (one answer field). */
export function decode(value: Json, spec: TypeSpec): Json {
  const t = resolve(spec)
  switch (t.name) {
    case 'money':
    case 'cents': {
      const text = numberText(value)
      return text === null ? value : moneyText(divide(text, t.scale))
    }
    case 'string':
      return value === null || value === undefined || typeof value === 'object' ? value : String(value)
    case 'number': {
      const text = numberText(value)
      return text === null ? value : Number(text)
    }
    case 'int':
      return integer(value) ?? value
    case 'seconds': {
      const text = numberText(value)
      return text === null ? value : Math.round(Number(text) * 1000)
    }
    case 'datetime':
      return typeof value === 'string' ? (parseDatetime(value, t.zoneMinutes) ?? value) : value
    case 'bool01':
    case 'yn':
      return truth(value) ?? value
    case 'from0': {
      const n = integer(value)
      return n === null ? value : n + 1
    }
    case 'csv':
    case 'csv-int': {
      if (typeof value !== 'string') return value
      const items = value.trim() === '' ? [] : value.split(t.separator).map((s) => s.trim())
      if (t.name === 'csv') return items
      const numbers = items.map(integer)
      return numbers.every((n) => n !== null) ? numbers : value
    }
  }
}

/** The contract's form → the upstream's (one call field: text from a query or form, any JSON from a JSON body). */
export function encode(value: Json, spec: TypeSpec): Json {
  const t = resolve(spec)
  switch (t.name) {
    case 'money':
    case 'cents': {
      const text = numberText(value)
      if (text === null) return value
      // Never rounded: a fraction of the upstream's unit goes as it is, for the upstream to refuse.
      return Number(multiply(text, t.scale))
    }
    case 'string':
      return value === null || value === undefined || typeof value === 'object' ? value : String(value)
    case 'number':
    case 'int': {
      const text = numberText(value)
      return text === null ? value : Number(text)
    }
    case 'seconds': {
      const ms = integer(value)
      return ms === null ? value : Math.floor(ms / 1000)
    }
    case 'datetime': {
      const ms = integer(value)
      return ms === null ? value : formatDatetime(ms, t.zoneMinutes)
    }
    case 'bool01': {
      const b = truth(value)
      return b === null ? value : b ? 1 : 0
    }
    case 'yn': {
      const b = truth(value)
      return b === null ? value : b ? 'Y' : 'N'
    }
    case 'from0': {
      const n = integer(value)
      return n === null ? value : n - 1
    }
    case 'csv':
    case 'csv-int':
      return Array.isArray(value) ? value.map((v) => String(v)).join(t.separator) : value
  }
}
