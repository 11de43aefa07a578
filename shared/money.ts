/**
 * Money travels as decimal strings and is kept as integers of micro-units (6 decimals), so no
 * floating point ever touches an amount.
 */
export const MICRO_DECIMALS = 6
export const MICRO = 1_000_000

const AMOUNT_RE = /^(-?)(\d+)(?:\.(\d{1,6}))?$/

/**
 * The largest amount kept exactly: `Number.MAX_SAFE_INTEGER` micro-units, 9007199254.740991.
 * Anything larger cannot be an integer of micro-units without losing digits.
 */
export const MAX_AMOUNT_MICRO = Number.MAX_SAFE_INTEGER

/** "12.5" → 12_500_000; null for anything that is not a plain decimal with at most 6 places or is beyond the safe range. */
export function parseMicro(amount: string): number | null {
  const m = AMOUNT_RE.exec(amount.trim())
  if (!m) return null
  const [, sign = '', whole = '0', frac = ''] = m
  // Integer arithmetic in BigInt: a whole part of 16+ digits would round in floating point and
  // could land on a safe integer by accident.
  const micro = BigInt(whole) * BigInt(MICRO) + BigInt(frac.padEnd(MICRO_DECIMALS, '0'))
  if (micro > BigInt(MAX_AMOUNT_MICRO)) return null
  const n = Number(micro)
  return sign === '-' ? -n : n
}

/** Whether `amount` is a plain decimal whose micro-units fit the safe range (see MAX_AMOUNT_MICRO). */
export const isAmountInRange = (amount: string): boolean => parseMicro(amount) !== null

/** "12.5" → 12_500_000. Throws on anything that is not a plain decimal with at most 6 places, or is out of range. */
export function toMicro(amount: string): number {
  const micro = parseMicro(amount)
  if (micro === null) {
    throw new RangeError(
      AMOUNT_RE.test(amount.trim()) ? `amount out of range: ${amount}` : `not an amount: ${amount}`,
    )
  }
  return micro
}

/**
 * 12_345_678 → "12.34" with 2 places. Extra places are cut, not rounded, so a balance is
 * never shown as more than it is.
 */
export function formatMicro(micro: number, places = 2): string {
  if (!Number.isSafeInteger(micro)) throw new RangeError(`not an integer amount: ${micro}`)
  const negative = micro < 0
  const abs = Math.abs(micro)
  const whole = Math.floor(abs / MICRO)
  const frac = String(abs % MICRO)
    .padStart(MICRO_DECIMALS, '0')
    .slice(0, Math.max(0, Math.min(places, MICRO_DECIMALS)))
  const text = places > 0 ? `${whole}.${frac}` : String(whole)
  return negative && abs > 0 ? `-${text}` : text
}

const ZERO = 0x30

/**
 * Micro-units with the precision they have: trailing zeros trimmed, but never fewer than 2 places
 * ("78.875000" → "78.875", "78.800000" → "78.80", "3" → "3.00"). The one way an amount is written
 * for people and on the wire.
 */
export function formatMoney(micro: number): string {
  const text = formatMicro(micro, MICRO_DECIMALS)
  // Drop trailing zeros beyond the second decimal place.
  let end = text.length
  const minEnd = end - (MICRO_DECIMALS - 2)
  while (end > minEnd && text.charCodeAt(end - 1) === ZERO) end--
  return end === text.length ? text : text.slice(0, end)
}
