import { type ReactNode, type TouchEvent, useEffect, useRef, useState } from 'react'
import './pull-refresh.css'

/**
 * Pull to refresh for the first screen (首页), where antd-mobile's PullToRefresh (with its spring
 * and gesture libraries, about 25 KB) would not fit the entry's budget (docs/client.md#the-first-screen).
 * It behaves and reads like antd-mobile's: pull down at the top of the page, release past the
 * threshold, the page refreshes, 刷新成功. Touch only, as on the phones it is for.
 */

export type PullState = 'idle' | 'pulling' | 'canRelease' | 'refreshing' | 'complete'

export const PULL_TEXT: Record<PullState, string> = {
  idle: '',
  pulling: '下拉刷新',
  canRelease: '释放立即刷新',
  refreshing: '加载中...',
  complete: '刷新成功',
}

/** How far (px, after damping) the content must come down before a release refreshes. */
export const PULL_THRESHOLD = 60
/** How long 刷新成功 stays before the head closes. */
export const COMPLETE_MS = 500

/** The head's height for a finger moved `dy` px down: half the distance, capped. */
export function pullDistance(dy: number, threshold = PULL_THRESHOLD): number {
  return dy <= 0 ? 0 : Math.min(dy / 2, threshold * 1.6)
}

function scrolledToTop(el: HTMLElement | null): boolean {
  for (let node = el; node; node = node.parentElement) if (node.scrollTop > 0) return false
  return (globalThis.scrollY ?? 0) <= 0
}

export function PullRefresh({
  onRefresh,
  children,
}: {
  onRefresh: () => Promise<unknown>
  children: ReactNode
}) {
  const [state, setState] = useState<PullState>('idle')
  const [height, setHeight] = useState(0)
  const startY = useRef<number | null>(null)
  const box = useRef<HTMLDivElement>(null)
  const timer = useRef<number | undefined>(undefined)
  useEffect(() => () => window.clearTimeout(timer.current), [])

  const onTouchStart = (e: TouchEvent) => {
    if (state === 'refreshing' || state === 'complete' || !scrolledToTop(box.current)) return
    startY.current = e.touches[0]?.clientY ?? null
  }
  const onTouchMove = (e: TouchEvent) => {
    if (startY.current === null) return
    const d = pullDistance((e.touches[0]?.clientY ?? startY.current) - startY.current)
    setHeight(d)
    setState(d === 0 ? 'idle' : d >= PULL_THRESHOLD ? 'canRelease' : 'pulling')
  }
  const onTouchEnd = () => {
    if (startY.current === null) return
    startY.current = null
    if (state !== 'canRelease') {
      setHeight(0)
      setState('idle')
      return
    }
    setState('refreshing')
    setHeight(PULL_THRESHOLD * 0.7)
    onRefresh()
      .catch(() => undefined)
      .finally(() => {
        setState('complete')
        timer.current = window.setTimeout(() => {
          setHeight(0)
          setState('idle')
        }, COMPLETE_MS)
      })
  }

  return (
    <div
      ref={box}
      className="pull-refresh"
      data-state={state}
      onTouchStart={onTouchStart}
      onTouchMove={onTouchMove}
      onTouchEnd={onTouchEnd}
      onTouchCancel={onTouchEnd}
    >
      <div
        className={
          startY.current === null ? 'pull-refresh__head pull-refresh__head--settle' : 'pull-refresh__head'
        }
        style={{ height }}
        role="status"
        data-testid="pull-refresh-head"
      >
        {PULL_TEXT[state]}
      </div>
      {children}
    </div>
  )
}
