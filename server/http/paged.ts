/**
 * One paged answer (`data` of every list endpoint: shared/contract/fields.ts `paged`): the page's
 * rows, where they are, the total for the same filters, and whether rows follow these. Every domain
 * answers pages through this, so `has_more` means one thing everywhere: rows exist after the last
 * one on this page.
 */
export function pagedAnswer<T>(list: T[], page: number, pageSize: number, total: number) {
  return {
    list,
    page,
    page_size: pageSize,
    total,
    has_more: (page - 1) * pageSize + list.length < total,
  }
}
