// @vitest-environment happy-dom
import { act, cleanup, renderHook } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { deferred } from '../test-support/deferred'
import { useBusy } from './use-busy'

afterEach(cleanup)

describe('useBusy', () => {
  it('is busy while the action runs, and not after', async () => {
    const { result } = renderHook(() => useBusy())
    const action = deferred()
    let done: Promise<void> = Promise.resolve()
    act(() => {
      done = result.current[1](() => action.promise)
    })
    expect(result.current[0]).toBe(true)
    await act(async () => {
      action.resolve()
      await done
    })
    expect(result.current[0]).toBe(false)
  })

  it('ignores a second run while the first is in flight, even within the same render', async () => {
    const { result } = renderHook(() => useBusy())
    const first = deferred()
    let calls = 0
    let done: Promise<void> = Promise.resolve()
    act(() => {
      const run = result.current[1]
      done = run(() => {
        calls++
        return first.promise
      })
      // A double tap: the same render's `run`, before React has re-rendered.
      void run(async () => {
        calls++
      })
    })
    await act(async () => {
      first.resolve()
      await done
    })
    expect(calls).toBe(1)
    // Once the first has ended, the next tap runs.
    await act(() =>
      result.current[1](async () => {
        calls++
      }),
    )
    expect(calls).toBe(2)
  })

  it('ends a failed action without throwing, ready for another try', async () => {
    const { result } = renderHook(() => useBusy())
    const action = deferred()
    let done: Promise<void> = Promise.resolve()
    act(() => {
      done = result.current[1](() => action.promise)
    })
    await act(async () => {
      action.reject(new Error('网络连接失败'))
      await done
    })
    expect(result.current[0]).toBe(false)
    let ran = false
    await act(() =>
      result.current[1](async () => {
        ran = true
      }),
    )
    expect(ran).toBe(true)
  })
})
