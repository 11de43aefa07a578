/**
 * Local calendar days as `YYYY-MM-DD` keys. "Today" is the emulator clock's day in the server's
 * time zone; a day runs from local midnight to the next local midnight (23 or 25 hours across a
 * daylight-saving change).
 */
export type DayKey = string

const pad = (n: number) => String(n).padStart(2, '0')
const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/

/** The local day an instant falls on. */
export function dayOf(ms: number): DayKey {
  const d = new Date(ms)
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`
}

function parts(day: DayKey): [number, number, number] {
  const m = DAY_RE.exec(day)
  if (!m) throw new RangeError(`not a day: ${day}`)
  return [Number(m[1]), Number(m[2]), Number(m[3])]
}

/** Whether the text is a real calendar day (2026-02-30 is not). */
export function isDay(text: string): boolean {
  if (!DAY_RE.test(text)) return false
  const [y, m, d] = parts(text)
  return dayOf(new Date(y, m - 1, d, 12).getTime()) === text
}

/** Local midnight at the start of the day. */
export function startOfDay(day: DayKey): number {
  const [y, m, d] = parts(day)
  return new Date(y, m - 1, d).getTime()
}

export function addDays(day: DayKey, n: number): DayKey {
  const [y, m, d] = parts(day)
  // Noon, so a daylight-saving hour can never push the result onto a neighbouring day.
  return dayOf(new Date(y, m - 1, d + n, 12).getTime())
}

/** [start, end) of the day in ms. */
export function dayRange(day: DayKey): { start: number; end: number } {
  return { start: startOfDay(day), end: startOfDay(addDays(day, 1)) }
}

/** Days from `from` to `to` inclusive, newest first. */
export function daysBetween(from: DayKey, to: DayKey): DayKey[] {
  const out: DayKey[] = []
  for (let d = to; d >= from; d = addDays(d, -1)) out.push(d)
  return out
}
