import { randomBytes, randomInt } from 'node:crypto'
import { formatMoney } from '../../../shared/money'

/** Business days start at 00:00 China Standard Time (UTC+8): daily limits and date filters use them. */
export const CST_OFFSET_MS = 8 * 3_600_000
export const DAY_MS = 24 * 3_600_000

/** Start of the CST day containing `at`. */
export const cstDayStart = (at: number): number =>
  Math.floor((at + CST_OFFSET_MS) / DAY_MS) * DAY_MS - CST_OFFSET_MS

/** "2026-11-22" → the instant that day starts in CST. */
export function cstDateStart(date: string): number {
  const [y, m, d] = date.split('-').map(Number)
  return Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1) - CST_OFFSET_MS
}

/** A time range from optional inclusive CST dates: [from, to). */
export function cstDateRange(start?: string, end?: string): { from: number | null; to: number | null } {
  return {
    from: start ? cstDateStart(start) : null,
    to: end ? cstDateStart(end) + DAY_MS : null,
  }
}

/** An amount with at least 2 and at most 6 places: "12.50", "0.158333", "-3.00". */
export const formatAmount = formatMoney

/** An order number: prefix, the CST time to the second and 6 random digits, e.g. D20261122153045123456. */
export function orderNo(prefix: string, at: number): string {
  const stamp = new Date(at + CST_OFFSET_MS).toISOString().replace(/\D/g, '').slice(0, 14)
  return `${prefix}${stamp}${String(randomInt(0, 1_000_000)).padStart(6, '0')}`
}

/** A made-up transaction hash, as the chain would report. */
export const fakeTxHash = (): string => randomBytes(32).toString('hex')

export function formatWait(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000))
  const h = Math.floor(minutes / 60)
  const m = minutes % 60
  if (h === 0) return `${m}分钟`
  return m === 0 ? `${h}小时` : `${h}小时${m}分钟`
}

export interface Page {
  readonly page: number
  readonly pageSize: number
}

export const pageOf = (q: { page?: number | undefined; page_size?: number | undefined }): Page => ({
  page: q.page ?? 1,
  pageSize: q.page_size ?? 20,
})

export function pagedResult<T>(list: T[], page: Page, total: number) {
  return {
    list,
    page: page.page,
    page_size: page.pageSize,
    total,
    has_more: page.page * page.pageSize < total,
  }
}
