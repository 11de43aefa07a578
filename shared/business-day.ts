/**
 * The business day: every day the product counts — daily limits, rebates, date filters, lottery
 * issue numbers, "today" on any page — runs from 00:00 to 24:00 China Standard Time (UTC+8, no
 * daylight saving), whatever the time zone of the server or the phone. Days travel as `YYYY-MM-DD`.
 */

/** China Standard Time (Asia/Shanghai): UTC+8 all year. */
export const BUSINESS_UTC_OFFSET_MINUTES = 480
export const BUSINESS_UTC_OFFSET_MS = BUSINESS_UTC_OFFSET_MINUTES * 60_000
export const DAY_MS = 86_400_000

/** A business day as `YYYY-MM-DD`. */
export type DayKey = string

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/
const pad = (n: number) => String(n).padStart(2, '0')

/** How much of an instant `formatCst` writes. */
export type CstPrecision = 'day' | 'minute' | 'second'

/**
 * The one text of an instant in China Standard Time, for the client and the server alike:
 * `YYYY-MM-DD` (`day`), `YYYY-MM-DD HH:mm` (`minute`) or `YYYY-MM-DD HH:mm:ss` (`second`), with
 * `gap` between the date and the time (a space; the client's pages use a no-break space).
 */
export function formatCst(ms: number, precision: CstPrecision = 'second', gap = ' '): string {
  const d = new Date(ms + BUSINESS_UTC_OFFSET_MS)
  const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`
  if (precision === 'day') return date
  const minute = `${date}${gap}${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`
  return precision === 'minute' ? minute : `${minute}:${pad(d.getUTCSeconds())}`
}

/** The business day an instant falls on. */
export const dayOf = (ms: number): DayKey => formatCst(ms, 'day')

/** The instant the business day containing `ms` starts. */
export const dayStartOf = (ms: number): number =>
  Math.floor((ms + BUSINESS_UTC_OFFSET_MS) / DAY_MS) * DAY_MS - BUSINESS_UTC_OFFSET_MS

function parts(day: DayKey): [number, number, number] {
  const m = DAY_RE.exec(day)
  if (!m) throw new RangeError(`not a day: ${day}`)
  return [Number(m[1]), Number(m[2]), Number(m[3])]
}

/** Whether the text is a real calendar day (2026-02-30 is not). */
export function isDay(text: string): boolean {
  if (!DAY_RE.test(text)) return false
  const [y, m, d] = parts(text)
  const t = new Date(Date.UTC(y, m - 1, d))
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d
}

/** The instant a business day starts (its 00:00 in China Standard Time). */
export function startOfDay(day: DayKey): number {
  const [y, m, d] = parts(day)
  return Date.UTC(y, m - 1, d) - BUSINESS_UTC_OFFSET_MS
}

export const addDays = (day: DayKey, n: number): DayKey => dayOf(startOfDay(day) + n * DAY_MS)

/** [start, end) of a business day in ms. */
export function dayRange(day: DayKey): { start: number; end: number } {
  const start = startOfDay(day)
  return { start, end: start + DAY_MS }
}

/** Days from `from` to `to` inclusive, newest first (none when the range is backwards). */
export function daysBetween(from: DayKey, to: DayKey): DayKey[] {
  const out: DayKey[] = []
  for (let d = to; d >= from; d = addDays(d, -1)) out.push(d)
  return out
}

/** A time range [from, to) from optional inclusive days; an absent end stays open. */
export function dateRange(start?: DayKey, end?: DayKey): { from: number | null; to: number | null } {
  return {
    from: start ? startOfDay(start) : null,
    to: end ? startOfDay(end) + DAY_MS : null,
  }
}
