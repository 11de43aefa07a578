import { useCallback, useEffect, useRef } from 'react'
import './notice-line.css'

/** How long the text rests before it first scrolls, and how fast it scrolls. */
export const NOTICE_SCROLL_DELAY_MS = 2000
export const NOTICE_SCROLL_PX_PER_S = 50

/**
 * One line of notice text with a speaker mark. Text wider than the line scrolls to the left after a
 * pause, then again and again from the right edge, at a steady speed; text that fits stands still.
 * With reduced motion the text wraps instead (notice-line.css), so it always fits and never moves.
 * It looks and moves as antd-mobile's NoticeBar (colour `info`) did here. The home page's
 * announcements line is usually the largest text of the first screen, so it is drawn by this small
 * component in the entry, not by NoticeBar, whose code would be one more request before the line
 * can paint (docs/client.md#the-first-screen).
 */
export function NoticeLine({ text }: { text: string }) {
  const boxRef = useRef<HTMLSpanElement>(null)
  const textRef = useRef<HTMLSpanElement>(null)
  const waitingRef = useRef(true)
  const scrollingRef = useRef(false)

  // Reads layout between its style writes on purpose: the jump back to the start must apply
  // without a transition before the next scroll is set.
  const scroll = useCallback(() => {
    const box = boxRef.current
    const line = textRef.current
    if (waitingRef.current || !box || !line) return
    if (box.offsetWidth >= line.offsetWidth) {
      scrollingRef.current = false
      line.style.removeProperty('transition-duration')
      line.style.removeProperty('transform')
      return
    }
    if (scrollingRef.current) return
    const first = !line.style.transform
    line.style.transitionDuration = '0s'
    line.style.transform = first ? 'translateX(0)' : `translateX(${box.offsetWidth}px)`
    const distance = first ? line.offsetWidth : box.offsetWidth + line.offsetWidth
    scrollingRef.current = true
    line.style.transitionDuration = `${Math.round(distance / NOTICE_SCROLL_PX_PER_S)}s`
    line.style.transform = `translateX(-${line.offsetWidth}px)`
  }, [])

  useEffect(() => {
    const timer = setTimeout(() => {
      waitingRef.current = false
      scroll()
    }, NOTICE_SCROLL_DELAY_MS)
    const box = boxRef.current
    const resized = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(scroll)
    if (box) resized?.observe(box)
    return () => {
      clearTimeout(timer)
      resized?.disconnect()
    }
  }, [scroll])

  // New text: measured again (it may now fit, or no longer fit).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the text changes
  useEffect(() => scroll(), [scroll, text])

  return (
    <div className="notice-line">
      <svg className="notice-line__mark" viewBox="0 0 24 24" width="1em" height="1em" aria-hidden="true">
        <path
          d="M3.5 9.5h3.5l5-4v13l-5-4H3.5z"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.8"
          strokeLinejoin="round"
        />
        <path
          d="M15.5 9a4 4 0 0 1 0 6M18 6.5a7.5 7.5 0 0 1 0 11"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.8"
          strokeLinecap="round"
        />
      </svg>
      <span ref={boxRef} className="notice-line__box">
        <span
          ref={textRef}
          className="notice-line__text"
          onTransitionEnd={() => {
            scrollingRef.current = false
            scroll()
          }}
        >
          {text}
        </span>
      </span>
    </div>
  )
}
