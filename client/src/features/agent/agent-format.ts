import { mask } from '@client/lib/format'

/** Small display helpers of the agent pages: pure, so they are tested without a browser. */

/** The range's days, both ends included. */
export function daysInRange(start: Date, end: Date): number {
  const utc = (d: Date) => Date.UTC(d.getFullYear(), d.getMonth(), d.getDate())
  return Math.round((utc(end) - utc(start)) / 86_400_000) + 1
}

/**
 * The player id with its middle masked (lib/format.ts `mask`, the app's one mask): team lists show
 * whose turnover it is without the whole id. An id too short to keep both ends shows only the stars.
 */
export function maskId(id: number): string {
  return mask(String(id), { keepHead: 1, keepTail: 1 })
}
