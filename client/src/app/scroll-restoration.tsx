import { useLayoutEffect } from 'react'
import { useLocation, useNavigationType } from 'react-router-dom'

/** Where the window's scroll positions are kept over a reload, by history entry. */
const STORAGE_KEY = 'app-scroll-positions'

let positions: Record<string, number> | null = null

function saved(): Record<string, number> {
  if (positions) return positions
  positions = {}
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}')
    if (typeof parsed === 'object' && parsed !== null)
      for (const [key, value] of Object.entries(parsed)) if (typeof value === 'number') positions[key] = value
  } catch {
    // Unreadable or disabled storage: nothing to restore.
  }
  return positions
}

function persist(): void {
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(saved()))
  } catch {
    // Quota or disabled storage: positions are kept for this page only.
  }
}

/**
 * The window's scroll position, as React Router's data-router ScrollRestoration keeps it: back and
 * forward return to where that entry was left (also after a reload), a link to `#id` scrolls to
 * the element, and any other navigation starts at the top. It runs when the new page commits.
 */
export function ScrollRestoration(): null {
  const location = useLocation()
  const navigationType = useNavigationType()

  useLayoutEffect(() => {
    const previous = window.history.scrollRestoration
    window.history.scrollRestoration = 'manual'
    window.addEventListener('pagehide', persist)
    return () => {
      window.removeEventListener('pagehide', persist)
      window.history.scrollRestoration = previous
    }
  }, [])

  useLayoutEffect(() => {
    const key = location.key
    const restore = navigationType === 'POP' ? saved()[key] : undefined
    const target = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null
    if (restore !== undefined) window.scrollTo(0, restore)
    else if (target) target.scrollIntoView()
    else window.scrollTo(0, 0)
    const remember = () => {
      saved()[key] = window.scrollY
    }
    window.addEventListener('scroll', remember, { passive: true })
    return () => window.removeEventListener('scroll', remember)
  }, [location.key, location.hash, navigationType])

  return null
}
