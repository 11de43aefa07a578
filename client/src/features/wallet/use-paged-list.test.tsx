// @vitest-environment happy-dom
import { act, cleanup, renderHook, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { type Paged, usePagedList } from './use-paged-list'

afterEach(cleanup)

type Row = { id: number }
const page = (ids: number[], hasMore: boolean): Paged<Row> => ({
  list: ids.map((id) => ({ id })),
  total: 99,
  has_more: hasMore,
})

/** A page request the test answers when it likes. */
function deferred<T>() {
  let resolve: (value: T) => void = () => undefined
  let reject: (error: unknown) => void = () => undefined
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

describe('usePagedList', () => {
  it('loads the first page, appends the next, and shows a row that shifted pages once', async () => {
    const pages: Record<number, Paged<Row>> = { 1: page([3, 2], true), 2: page([2, 1], false) }
    const { result } = renderHook(() => usePagedList<Row>({}, async (n) => pages[n] ?? page([], false)))
    await waitFor(() => expect(result.current.loaded).toBe(true))
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
        usePagedList<Row>({ type }, (n) =>
          type === 'old' ? slow.promise : Promise.resolve(page([n * 10], false)),
        ),
      { initialProps: { type: 'old' } },
    )
    rerender({ type: 'new' })
    await waitFor(() => expect(result.current.items.map((r) => r.id)).toEqual([10]))
    await act(async () => slow.resolve(page([666], false)))
    expect(result.current.items.map((r) => r.id)).toEqual([10])
  })

  it('says when the first page failed, and a refresh tries again', async () => {
    let fail = true
    const { result } = renderHook(() =>
      usePagedList<Row>({}, async () => {
        if (fail) throw new Error('offline')
        return page([1], false)
      }),
    )
    await waitFor(() => expect(result.current.failed).toBe(true))
    fail = false
    await act(() => result.current.refresh())
    expect(result.current.failed).toBe(false)
    expect(result.current.items).toEqual([{ id: 1 }])
  })

  it('rejects loadMore when the next page fails, so InfiniteScroll offers a retry', async () => {
    const { result } = renderHook(() =>
      usePagedList<Row>({}, async (n) => {
        if (n === 2) throw new Error('offline')
        return page([1], true)
      }),
    )
    await waitFor(() => expect(result.current.loaded).toBe(true))
    await expect(result.current.loadMore()).rejects.toThrow('offline')
    expect(result.current.items).toEqual([{ id: 1 }])
  })
})
