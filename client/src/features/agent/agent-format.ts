import { mask } from '@client/lib/format'

/** Small display helpers of the agent pages: pure, so they are tested without a browser. */

/** The range's days, both ends included. */
export function daysInRange(start: Date, end: Date): number {
  const utc = (d: Date) => Date.UTC(d.getFullYear(), d.getMonth(), d.getDate())
  return Math.round((utc(end) - utc(start)) / 86_400_000) + 1
}

/**
 * The player id with its middle masked (lib/format.ts `mask`, the app's one mask): team lists show
 * whose turnover it is without the whole id.
 */
export function maskId(id: number): string {
  const text = String(id)
  // A two-digit id keeps only its first digit; a one-digit id shows only the stars.
  return mask(text, { keepHead: 1, keepTail: text.length > 2 ? 1 : 0 })
}
