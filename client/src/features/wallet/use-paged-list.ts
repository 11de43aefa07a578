import { useCallback, useEffect, useRef, useState } from 'react'

/** A page of a paged wallet list, as the contract's `paged()` gives it. */
export interface Paged<T> {
  list: T[]
  total: number
  has_more: boolean
}

export interface PagedList<T> {
  items: T[]
  total: number | null
  /** The first page has arrived (the list may be empty). */
  loaded: boolean
  /** The first page could not be loaded (callApi has said why). */
  failed: boolean
  hasMore: boolean
  /** For InfiniteScroll: loads the next page; rejects when it failed, so that a retry is offered. */
  loadMore: () => Promise<void>
  /** For PullToRefresh and retries: starts again from the first page. */
  refresh: () => Promise<void>
}

export const PAGE_SIZE = 20

interface State<T> {
  /** The filters these pages belong to. */
  filters: string
  pages: Paged<T>[]
  failed: boolean
}

/**
 * A paged list: `fetchPage(n)` reads page n (through callApi, so the contract parses it) for the
 * current `filters`. A change of filters starts again at page 1, and an answer for filters no
 * longer shown is dropped. Rows that shifted onto the next page while the player scrolled are shown
 * once.
 */
export function usePagedList<T extends { id: number }>(
  filters: unknown,
  fetchPage: (page: number) => Promise<Paged<T>>,
): PagedList<T> {
  const key = JSON.stringify(filters)
  const [state, setState] = useState<State<T>>({ filters: key, pages: [], failed: false })
  const latest = useRef({ key, fetchPage })
  latest.current = { key, fetchPage }

  /** Page `n` for the filters shown now; null when the filters changed while it loaded. */
  const read = useCallback(async (page: number): Promise<{ key: string; data: Paged<T> } | null> => {
    const asked = latest.current.key
    const data = await latest.current.fetchPage(page)
    return latest.current.key === asked ? { key: asked, data } : null
  }, [])

  const loadFirst = useCallback(async () => {
    const asked = latest.current.key
    try {
      const first = await read(1)
      if (first) setState({ filters: first.key, pages: [first.data], failed: false })
    } catch {
      if (latest.current.key === asked) setState({ filters: asked, pages: [], failed: true })
    }
  }, [read])

  useEffect(() => {
    setState({ filters: key, pages: [], failed: false })
    void loadFirst()
  }, [key, loadFirst])

  const current: State<T> = state.filters === key ? state : { filters: key, pages: [], failed: false }
  const seen = new Set<number>()
  const items: T[] = []
  for (const page of current.pages) {
    for (const item of page.list) {
      if (seen.has(item.id)) continue
      seen.add(item.id)
      items.push(item)
    }
  }
  const last = current.pages[current.pages.length - 1]

  return {
    items,
    total: current.pages[0]?.total ?? null,
    loaded: current.pages.length > 0,
    failed: current.failed,
    hasMore: last?.has_more ?? false,
    loadMore: async () => {
      const next = await read(current.pages.length + 1)
      if (next) setState((s) => (s.filters === next.key ? { ...s, pages: [...s.pages, next.data] } : s))
    },
    refresh: loadFirst,
  }
}
