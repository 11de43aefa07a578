import { MICRO_DECIMALS } from '@shared/money'

/**
 * Keeps what a player types into an amount field to digits and one point with at most `places`
 * decimals; a leading run of zeros collapses ("007" → "7", "00.5" → "0.5"). Full-width and Chinese
 * points and commas count as the point.
 */
export function sanitizeAmountInput(text: string, places = MICRO_DECIMALS): string {
  const cleaned = text.replace(/[。．，,]/g, '.').replace(/[^\d.]/g, '')
  const dot = cleaned.indexOf('.')
  let whole = dot === -1 ? cleaned : cleaned.slice(0, dot)
  const frac = dot === -1 ? '' : cleaned.slice(dot + 1).replace(/\./g, '')
  whole = whole.replace(/^0+(?=\d)/, '').slice(0, 12)
  if (dot === -1) return whole
  return `${whole === '' ? '0' : whole}.${frac.slice(0, Math.max(0, places))}`
}
