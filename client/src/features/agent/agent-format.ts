import { maskName } from '@shared/mask'

/** Small display helpers of the agent pages: pure, so they are tested without a browser. */

/** The range's days, both ends included. */
export function daysInRange(start: Date, end: Date): number {
  const utc = (d: Date) => Date.UTC(d.getFullYear(), d.getMonth(), d.getDate())
  return Math.round((utc(end) - utc(start)) / 86_400_000) + 1
}

/**
 * The player id with its middle masked (shared/mask.ts `maskName`, the app's one mask): team lists
 * show whose turnover it is without the whole id. A two-digit id keeps only its first digit; a
 * one-digit id shows only the stars.
 */
export const maskId = (id: number): string => maskName(String(id))
