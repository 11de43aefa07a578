import { BUSINESS_UTC_OFFSET_MS, DAY_MS, dayOf, dayStartOf, formatCst } from '@shared/business-day'
import type { LimitPeriod } from '@shared/contract/protection'

/**
 * The business periods limits are counted in, on the wallet's business day (China Standard Time):
 * the day, the week from Monday 00:00 and the calendar month. Each is [start, end).
 */
export function periodRange(period: LimitPeriod, at: number): { start: number; end: number } {
  const dayStart = dayStartOf(at)
  if (period === 'day') return { start: dayStart, end: dayStart + DAY_MS }
  if (period === 'week') {
    // 0 = Sunday … 6 = Saturday, of the CST date.
    const weekday = new Date(dayStart + BUSINESS_UTC_OFFSET_MS).getUTCDay()
    const start = dayStart - ((weekday + 6) % 7) * DAY_MS
    return { start, end: start + 7 * DAY_MS }
  }
  const d = new Date(dayStart + BUSINESS_UTC_OFFSET_MS)
  const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) - BUSINESS_UTC_OFFSET_MS
  const end = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) - BUSINESS_UTC_OFFSET_MS
  return { start, end }
}

/**
 * The same CST wall time `months` calendar months later; a day the target month lacks becomes its
 * last day (31 August + 6 months is 28 or 29 February).
 */
export function addCstMonths(at: number, months: number): number {
  const d = new Date(at + BUSINESS_UTC_OFFSET_MS)
  const year = d.getUTCFullYear()
  const month = d.getUTCMonth() + months
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate()
  const day = Math.min(d.getUTCDate(), lastDay)
  const shifted = Date.UTC(
    year,
    month,
    day,
    d.getUTCHours(),
    d.getUTCMinutes(),
    d.getUTCSeconds(),
    d.getUTCMilliseconds(),
  )
  return shifted - BUSINESS_UTC_OFFSET_MS
}

/** The CST date of an instant, as YYYY-MM-DD: its business day. */
export const cstDate = (at: number): string => dayOf(at)

/** An instant as `YYYY-MM-DD HH:mm` in CST (北京时间), for messages. */
export const cstMinute = (at: number): string => formatCst(at, 'minute')
