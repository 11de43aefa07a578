/**
 * Lengths of play and the house edge as the protection pages word them. Their times are the app's
 * one CST format (lib/date-time.ts) and their signed results lib/format.ts `signedAmount`.
 */

/** A length of time as 小时/分钟: 0 → "0分钟", 3_900_000 → "1小时5分钟". */
export function formatDuration(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000))
  const h = Math.floor(minutes / 60)
  const m = minutes % 60
  if (h === 0) return `${m}分钟`
  return m === 0 ? `${h}小时` : `${h}小时${m}分钟`
}

/** The house edge as a percentage: 0.025 → "2.50%". */
export const edgePercent = (edge: number): string => `${(edge * 100).toFixed(2)}%`

/** What a player loses on average per 100 staked at this edge: 0.025 → "2.50". */
export const lossPerHundred = (edge: number): string => (edge * 100).toFixed(2)
