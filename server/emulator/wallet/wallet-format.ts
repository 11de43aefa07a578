import { randomBytes, randomInt } from 'node:crypto'
import { pagedAnswer } from '@server/http/paged'
import { formatCst } from '@shared/business-day'

/** An order number: prefix, the CST time to the second and 6 random digits, e.g. D20261122153045123456. */
export function orderNo(prefix: string, at: number): string {
  const stamp = formatCst(at).replace(/\D/g, '')
  return `${prefix}${stamp}${String(randomInt(0, 1_000_000)).padStart(6, '0')}`
}

/** A made-up transaction hash, as the chain would report. */
export const fakeTxHash = (): string => randomBytes(32).toString('hex')

/** A history's filter: a status, and a time range (either end open). */
export interface HistoryFilter {
  status?: string | undefined
  from: number | null
  to: number | null
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
  return pagedAnswer(list, page.page, page.pageSize, total)
}
