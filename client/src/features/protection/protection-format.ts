/**
 * Times and amounts of the protection pages. Limits, resets and exclusions are counted on the
 * business day, China Standard Time (UTC+8), so times are shown in CST whatever the device's zone.
 */

const CST_OFFSET_MS = 8 * 3_600_000
const pad = (n: number) => String(n).padStart(2, '0')

/** Unix milliseconds as `YYYY-MM-DD HH:mm` (北京时间). */
export function cstDateTime(ms: number): string {
  const d = new Date(ms + CST_OFFSET_MS)
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`
}

/** The CST date of an instant, as the API's YYYY-MM-DD. */
export const cstDate = (ms: number): string => cstDateTime(ms).slice(0, 10)

/** A length of time as 小时/分钟: 0 → "0分钟", 3_900_000 → "1小时5分钟". */
export function formatDuration(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000))
  const h = Math.floor(minutes / 60)
  const m = minutes % 60
  if (h === 0) return `${m}分钟`
  return m === 0 ? `${h}小时` : `${h}小时${m}分钟`
}

/** A signed amount with its sign: "5.00" → "+5.00", "-3.50" stays. */
export const signedAmount = (amount: string): string =>
  amount.startsWith('-') || Number(amount) === 0 ? amount : `+${amount}`

/** The house edge as a percentage: 0.025 → "2.50%". */
export const edgePercent = (edge: number): string => `${(edge * 100).toFixed(2)}%`

/** What a player loses on average per 100 staked at this edge: 0.025 → "2.50". */
export const lossPerHundred = (edge: number): string => (edge * 100).toFixed(2)
