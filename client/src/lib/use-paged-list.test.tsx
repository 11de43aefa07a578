// @vitest-environment happy-dom
import { act, cleanup, renderHook } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { deferred } from '../test-support/deferred'
import { PAGE_SIZE, type Paged, type PageParams, usePagedList } from './use-paged-list'

afterEach(cleanup)

/**
 * The fetchers answer with settled promises: one turn of the event loop inside act() lets every
 * answer arrive and React render it, with no polling and no deadline.
 */
const answered = () => act(() => new Promise<void>((resolve) => setImmediate(resolve)))

type Row = { id: number }
const byId = (row: Row) => row.id
const page = (ids: number[], hasMore: boolean): Paged<Row> => ({
  list: ids.map((id) => ({ id })),
  total: 99,
  has_more: hasMore,
})

describe('usePagedList', () => {
  it('loads the first page, appends the next, and shows a row that shifted pages once', async () => {
    const pages: Record<number, Paged<Row>> = { 1: page([3, 2], true), 2: page([2, 1], false) }
    const { result } = renderHook(() =>
      usePagedList<Paged<Row>>({}, async ({ page: n }) => pages[n] ?? page([], false), byId),
    )
    await answered()
    expect(result.current.loaded).toBe(true)
    expect(result.current.items.map((r) => r.id)).toEqual([3, 2])
    expect(result.current.hasMore).toBe(true)
    await act(() => result.current.loadMore())
    expect(result.current.items.map((r) => r.id)).toEqual([3, 2, 1])
    expect(result.current.hasMore).toBe(false)
  })

  it('starts again on a change of filters and drops the answer for the old ones', async () => {
    const slow = deferred<Paged<Row>>()
    const { result, rerender } = renderHook(
      ({ type }: { type: string }) =>
        usePagedList<Paged<Row>>(
          { type },
          ({ page: n }) => (type === 'old' ? slow.promise : Promise.resolve(page([n * 10], false))),
          byId,
        ),
      { initialProps: { type: 'old' } },
    )
    rerender({ type: 'new' })
    await answered()
    expect(result.current.items.map((r) => r.id)).toEqual([10])
    await act(async () => slow.resolve(page([666], false)))
    expect(result.current.items.map((r) => r.id)).toEqual([10])
  })

  it('says when the first page failed, and a refresh tries again', async () => {
    let fail = true
    const { result } = renderHook(() =>
      usePagedList<Paged<Row>>(
        {},
        async () => {
          if (fail) throw new Error('offline')
          return page([1], false)
        },
        byId,
      ),
    )
    await answered()
    expect(result.current.failed).toBe(true)
    fail = false
    await act(() => result.current.refresh())
    expect(result.current.failed).toBe(false)
    expect(result.current.items).toEqual([{ id: 1 }])
  })

  it('rejects loadMore when the next page fails, so InfiniteScroll offers a retry', async () => {
    const { result } = renderHook(() =>
      usePagedList<Paged<Row>>(
        {},
        async ({ page: n }) => {
          if (n === 2) throw new Error('offline')
          return page([1], true)
        },
        byId,
      ),
    )
    await answered()
    expect(result.current.loaded).toBe(true)
    await expect(result.current.loadMore()).rejects.toThrow('offline')
    expect(result.current.items).toEqual([{ id: 1 }])
  })

  it('reads a list of 150 rows to its end, page after page of the same size', async () => {
    // A server holding 150 rows that pages them as the contract says (page_size 1–100).
    const rows = Array.from({ length: 150 }, (_, i) => ({ id: 150 - i }))
    const asked: PageParams[] = []
    const server = async (params: PageParams): Promise<Paged<Row>> => {
      asked.push(params)
      expect(params.page_size).toBeGreaterThanOrEqual(1)
      expect(params.page_size).toBeLessThanOrEqual(100)
      const from = (params.page - 1) * params.page_size
      const list = rows.slice(from, from + params.page_size)
      return { list, total: rows.length, has_more: from + list.length < rows.length }
    }
    const { result } = renderHook(() => usePagedList<Paged<Row>>({}, server, byId))
    await answered()
    expect(result.current.loaded).toBe(true)
    while (result.current.hasMore) await act(() => result.current.loadMore())
    expect(result.current.items).toHaveLength(150)
    expect(result.current.items.map(byId)).toEqual(rows.map(byId))
    expect(result.current.total).toBe(150)
    expect(asked.map((p) => p.page)).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
    expect(new Set(asked.map((p) => p.page_size))).toEqual(new Set([PAGE_SIZE]))
  })

  it('keeps each page as it came, so a page can read the fields around the list', async () => {
    const { result } = renderHook(() =>
      usePagedList<Paged<Row> & { summary: string }>(
        {},
        async ({ page: n }) => ({ ...page([n], n < 2), summary: `page ${n}` }),
        byId,
      ),
    )
    await answered()
    expect(result.current.loaded).toBe(true)
    await act(() => result.current.loadMore())
    expect(result.current.pages.map((p) => p.summary)).toEqual(['page 1', 'page 2'])
  })
})
