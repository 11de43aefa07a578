// @vitest-environment happy-dom

import { DEBOUNCE_MS } from '@shared/constants'
import { act, renderHook } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { debounce, useDebouncedCallback } from './debounce'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('debounce', () => {
  it('runs once, DEBOUNCE_MS (500 ms) after the last call, with the last arguments', () => {
    const fn = vi.fn<(q: string) => void>()
    const d = debounce(fn)
    d('a')
    vi.advanceTimersByTime(300)
    d('ab')
    vi.advanceTimersByTime(DEBOUNCE_MS - 1)
    expect(fn).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(fn).toHaveBeenCalledTimes(1)
    expect(fn).toHaveBeenCalledWith('ab')
    expect(DEBOUNCE_MS).toBe(500)
  })

  it('takes another delay', () => {
    const fn = vi.fn()
    const d = debounce(fn, 100)
    d()
    vi.advanceTimersByTime(99)
    expect(fn).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(fn).toHaveBeenCalledTimes(1)
  })

  it('cancel drops the pending call', () => {
    const fn = vi.fn()
    const d = debounce(fn)
    d()
    expect(d.pending()).toBe(true)
    d.cancel()
    expect(d.pending()).toBe(false)
    vi.runAllTimers()
    expect(fn).not.toHaveBeenCalled()
  })

  it('flush runs the pending call now, once', () => {
    const fn = vi.fn<(n: number) => void>()
    const d = debounce(fn)
    d(1)
    d(2)
    d.flush()
    expect(fn).toHaveBeenCalledExactlyOnceWith(2)
    vi.runAllTimers()
    expect(fn).toHaveBeenCalledTimes(1)
  })

  it('flush without a pending call does nothing', () => {
    const fn = vi.fn()
    const d = debounce(fn)
    d.flush()
    expect(fn).not.toHaveBeenCalled()
  })

  it('works again after it has fired', () => {
    const fn = vi.fn()
    const d = debounce(fn)
    d()
    vi.runAllTimers()
    d()
    vi.runAllTimers()
    expect(fn).toHaveBeenCalledTimes(2)
  })
})

describe('useDebouncedCallback', () => {
  it('keeps its identity across renders and calls the latest function', () => {
    const first = vi.fn()
    const second = vi.fn()
    const { result, rerender } = renderHook(({ fn }) => useDebouncedCallback(fn), {
      initialProps: { fn: first },
    })
    const before = result.current
    result.current('x')
    rerender({ fn: second })
    expect(result.current).toBe(before)
    act(() => {
      vi.advanceTimersByTime(DEBOUNCE_MS)
    })
    expect(first).not.toHaveBeenCalled()
    expect(second).toHaveBeenCalledExactlyOnceWith('x')
  })

  it('drops a pending call on unmount', () => {
    const fn = vi.fn()
    const { result, unmount } = renderHook(() => useDebouncedCallback(fn, 200))
    result.current()
    unmount()
    vi.runAllTimers()
    expect(fn).not.toHaveBeenCalled()
  })
})
