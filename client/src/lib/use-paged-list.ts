import { useCallback, useEffect, useRef, useState } from 'react'
import { isEndpointMissing } from './endpoint-status'

/**
 * The one way the client reads a paged list (docs/client.md): every paged endpoint answers with the
 * contract's `paged()` shape, and every page that lists one asks for PAGE_SIZE rows a page,
 * page after page, through this hook.
 */

/** A page of a paged list, as the contract's `paged()` gives it (an answer may carry more). */
export interface Paged<T = unknown> {
  list: T[]
  total: number
  has_more: boolean
}

/** A row of the pages `P`. */
export type ItemOf<P extends Paged> = P['list'][number]

/** Rows a page: what every paged page asks for (the contract allows 1–100). */
export const PAGE_SIZE = 20

/** Which page to read: spread into the endpoint's query. */
export interface PageParams {
  page: number
  page_size: number
}

export interface PagedList<P extends Paged> {
  /** The rows of every page loaded so far, each once. */
  items: ItemOf<P>[]
  /** The pages loaded so far, as they came: an answer's other fields (totals, a summary) are here. */
  pages: readonly P[]
  total: number | null
  /** The first page has arrived (the list may be empty). */
  loaded: boolean
  /** The first page could not be loaded (callApi has said why). */
  failed: boolean
  /** It failed because the server does not offer the endpoint (lib/endpoint-status.ts): no retry. */
  missing: boolean
  hasMore: boolean
  /** What tells two rows apart (React's key, and a row met again on the next page). */
  keyOf: (item: ItemOf<P>) => string | number
  /** Loads the next page; rejects when it failed, so that a retry is offered. */
  loadMore: () => Promise<void>
  /** For PullToRefresh and retries: starts again from the first page. */
  refresh: () => Promise<void>
}

interface State<P> {
  /** The filters these pages belong to. */
  filters: string
  pages: P[]
  failed: boolean
  missing: boolean
}

/**
 * A paged list: `fetchPage({ page: n, page_size })` reads page n (through callApi, so the contract
 * parses it) for the current `filters`; the size never changes, so the list grows by asking for the
 * next page until the last one says `has_more: false`. A change of filters starts again at page 1, and an answer for filters no
 * longer shown is dropped. Rows that shifted onto the next page while the player scrolled are shown
 * once (told apart by `keyOf`).
 */
export function usePagedList<P extends Paged>(
  filters: unknown,
  fetchPage: (page: PageParams) => Promise<P>,
  keyOf: (item: NoInfer<ItemOf<P>>) => string | number,
): PagedList<P> {
  const key = JSON.stringify(filters)
  const [state, setState] = useState<State<P>>({ filters: key, pages: [], failed: false, missing: false })
  const latest = useRef({ key, fetchPage })
  latest.current = { key, fetchPage }

  /** Page `n` for the filters shown now; null when the filters changed while it loaded. */
  const read = useCallback(async (page: number): Promise<{ key: string; data: P } | null> => {
    const asked = latest.current.key
    const data = await latest.current.fetchPage({ page, page_size: PAGE_SIZE })
    return latest.current.key === asked ? { key: asked, data } : null
  }, [])

  const loadFirst = useCallback(async () => {
    const asked = latest.current.key
    try {
      const first = await read(1)
      if (first) setState({ filters: first.key, pages: [first.data], failed: false, missing: false })
    } catch (err) {
      if (latest.current.key === asked)
        setState({ filters: asked, pages: [], failed: true, missing: isEndpointMissing(err) })
    }
  }, [read])

  useEffect(() => {
    setState({ filters: key, pages: [], failed: false, missing: false })
    void loadFirst()
  }, [key, loadFirst])

  const current: State<P> =
    state.filters === key ? state : { filters: key, pages: [], failed: false, missing: false }
  const seen = new Set<string | number>()
  const items: ItemOf<P>[] = []
  for (const page of current.pages) {
    for (const item of page.list) {
      const id = keyOf(item)
      if (seen.has(id)) continue
      seen.add(id)
      items.push(item)
    }
  }
  const last = current.pages[current.pages.length - 1]

  return {
    items,
    pages: current.pages,
    total: current.pages[0]?.total ?? null,
    loaded: current.pages.length > 0,
    failed: current.failed,
    missing: current.missing,
    hasMore: last?.has_more ?? false,
    keyOf,
    loadMore: async () => {
      const next = await read(current.pages.length + 1)
      if (next) setState((s) => (s.filters === next.key ? { ...s, pages: [...s.pages, next.data] } : s))
    },
    refresh: loadFirst,
  }
}
