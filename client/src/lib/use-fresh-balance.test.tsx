// @vitest-environment happy-dom
import { cleanup, renderHook } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'

const refreshBalance = vi.fn(() => Promise.resolve())
vi.mock('./session-actions', () => ({ refreshBalance }))
const state = { isLogin: true }
vi.mock('./session-store', () => ({ session: { get: () => state } }))

const { REFOCUS_MIN_MS, useFreshBalance } = await import('./use-fresh-balance')

afterEach(() => {
  cleanup()
  refreshBalance.mockClear()
  vi.useRealTimers()
})

describe('useFreshBalance', () => {
  it('reads the balance on open and whenever the page is shown or focused again', () => {
    vi.useFakeTimers()
    renderHook(() => useFreshBalance())
    expect(refreshBalance).toHaveBeenCalledTimes(1)
    // A focus right after the open is the same moment.
    window.dispatchEvent(new Event('focus'))
    expect(refreshBalance).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(REFOCUS_MIN_MS)
    document.dispatchEvent(new Event('visibilitychange'))
    expect(refreshBalance).toHaveBeenCalledTimes(2)
    vi.advanceTimersByTime(REFOCUS_MIN_MS)
    window.dispatchEvent(new Event('focus'))
    expect(refreshBalance).toHaveBeenCalledTimes(3)
  })

  it('asks nothing while logged out', () => {
    state.isLogin = false
    renderHook(() => useFreshBalance())
    window.dispatchEvent(new Event('focus'))
    expect(refreshBalance).not.toHaveBeenCalled()
    state.isLogin = true
  })
})
