/** Whether rows exist after the last one on this page: the one meaning of `has_more`. */
export const hasMore = (page: number, pageSize: number, rowsOnPage: number, total: number): boolean =>
  (page - 1) * pageSize + rowsOnPage < total

/**
 * One paged answer (`data` of every list endpoint: shared/contract/fields.ts `paged`): the page's
 * rows, where they are, the total for the same filters, and whether rows follow these. Every domain
 * answers pages through this (and proxy mode's adapter fills a missing `has_more` with `hasMore`), so `has_more` means one thing everywhere: rows exist after the last
 * one on this page.
 */
export function pagedAnswer<T>(list: T[], page: number, pageSize: number, total: number) {
  return {
    list,
    page,
    page_size: pageSize,
    total,
    has_more: hasMore(page, pageSize, list.length, total),
  }
}
