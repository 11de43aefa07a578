// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { COMPLETE_MS, PULL_THRESHOLD, PullRefresh, pullDistance } from './pull-refresh'

afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

const touch = (y: number) => ({ touches: [{ clientY: y }] })

describe('pull to refresh', () => {
  it('damps the pull and caps it', () => {
    expect(pullDistance(-10)).toBe(0)
    expect(pullDistance(40)).toBe(20)
    expect(pullDistance(10_000)).toBe(PULL_THRESHOLD * 1.6)
  })

  it('refreshes once on a release past the threshold, saying what happens at each step', async () => {
    vi.useFakeTimers()
    let done: () => void = () => undefined
    const onRefresh = vi.fn(() => new Promise<void>((r) => (done = r)))
    render(
      <PullRefresh onRefresh={onRefresh}>
        <p>内容</p>
      </PullRefresh>,
    )
    const box = screen.getByText('内容').parentElement as HTMLElement
    const head = screen.getByTestId('pull-refresh-head')
    fireEvent.touchStart(box, touch(100))
    fireEvent.touchMove(box, touch(150))
    expect(head.textContent).toBe('下拉刷新')
    fireEvent.touchMove(box, touch(100 + PULL_THRESHOLD * 2))
    expect(head.textContent).toBe('释放立即刷新')
    fireEvent.touchEnd(box)
    expect(onRefresh).toHaveBeenCalledTimes(1)
    expect(head.textContent).toBe('加载中...')
    // A second pull while refreshing does nothing.
    fireEvent.touchStart(box, touch(100))
    fireEvent.touchMove(box, touch(300))
    fireEvent.touchEnd(box)
    expect(onRefresh).toHaveBeenCalledTimes(1)
    await act(async () => done())
    expect(head.textContent).toBe('刷新成功')
    await act(async () => vi.advanceTimersByTime(COMPLETE_MS))
    expect(head.textContent).toBe('')
  })

  it('does nothing on a short pull', () => {
    const onRefresh = vi.fn(() => Promise.resolve())
    render(
      <PullRefresh onRefresh={onRefresh}>
        <p>内容</p>
      </PullRefresh>,
    )
    const box = screen.getByText('内容').parentElement as HTMLElement
    fireEvent.touchStart(box, touch(100))
    fireEvent.touchMove(box, touch(130))
    fireEvent.touchEnd(box)
    expect(onRefresh).not.toHaveBeenCalled()
  })
})
