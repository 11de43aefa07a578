// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { NOTICE_SCROLL_DELAY_MS, NoticeLine } from './notice-line'

/** happy-dom lays nothing out: the box and the text get the widths a test gives them. */
let widths = { box: 300, text: 1150 }

beforeEach(() => {
  vi.useFakeTimers()
  vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockImplementation(function (this: HTMLElement) {
    if (this.classList.contains('notice-line__box')) return widths.box
    if (this.classList.contains('notice-line__text')) return widths.text
    return 0
  })
})

afterEach(() => {
  cleanup()
  vi.useRealTimers()
  vi.restoreAllMocks()
})

const line = () => screen.getByText(/公告/)

describe('NoticeLine', () => {
  it('scrolls text wider than the line after the pause, at 50 px/s, then again from the right edge', () => {
    widths = { box: 300, text: 1150 }
    render(<NoticeLine text="公告：很长的一行" />)
    expect(line().style.transform).toBe('')
    act(() => vi.advanceTimersByTime(NOTICE_SCROLL_DELAY_MS))
    expect(line().style.transform).toBe('translateX(-1150px)')
    expect(line().style.transitionDuration).toBe('23s')
    fireEvent.transitionEnd(line())
    // From the right edge: the box's width and the text's.
    expect(line().style.transform).toBe('translateX(-1150px)')
    expect(line().style.transitionDuration).toBe('29s')
  })

  it('leaves text that fits standing still', () => {
    widths = { box: 300, text: 200 }
    render(<NoticeLine text="公告：短" />)
    act(() => vi.advanceTimersByTime(NOTICE_SCROLL_DELAY_MS * 2))
    expect(line().style.transform).toBe('')
    expect(line().style.transitionDuration).toBe('')
  })

  it('stops scrolling when new text fits', () => {
    widths = { box: 300, text: 1150 }
    const { rerender } = render(<NoticeLine text="公告：很长的一行" />)
    act(() => vi.advanceTimersByTime(NOTICE_SCROLL_DELAY_MS))
    expect(line().style.transform).toBe('translateX(-1150px)')
    widths = { box: 300, text: 200 }
    rerender(<NoticeLine text="公告：短" />)
    expect(line().style.transform).toBe('')
  })
})
