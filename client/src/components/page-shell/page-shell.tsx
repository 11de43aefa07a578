import { paths } from '@client/config/paths'
import NavBar from 'antd-mobile/es/components/nav-bar'
import { type ReactNode, useEffect, useRef } from 'react'
import { useNavigate } from 'react-router-dom'
import './page-shell.css'

/** Whether this tab's history has an entry of ours to go back to (React Router keeps an index). */
function canGoBack(): boolean {
  const state: unknown = window.history.state
  return typeof state === 'object' && state !== null && 'idx' in state && Number(state.idx) > 0
}

export interface PageShellProps {
  title: string
  children: ReactNode
  /** Shown at the right of the nav bar. */
  right?: ReactNode
  /** Where the back arrow goes when there is no history to return to. */
  fallback?: string
  /** Pages inside the tab layout have no back arrow. */
  back?: boolean
}

/** A page outside or inside the tab layout: safe-area aware nav bar, then the content. */
export function PageShell({ title, children, right, fallback = paths.home, back = true }: PageShellProps) {
  const navigate = useNavigate()
  const onBack = () => (canGoBack() ? navigate(-1) : navigate(fallback, { replace: true }))
  const bar = useRef<HTMLElement>(null)
  // antd-mobile's nav bar marks its left slot role="button" with no name: name it 返回, or take
  // the role away where there is no back arrow, so screen readers announce something true.
  useEffect(() => {
    const left = bar.current?.querySelector('.adm-nav-bar-left')
    if (!left) return
    if (back) {
      left.setAttribute('aria-label', '返回')
    } else {
      left.removeAttribute('role')
      left.removeAttribute('aria-label')
    }
  }, [back])
  return (
    <div className="page-shell">
      <header className="page-shell__bar" ref={bar}>
        <NavBar back={back ? '返回' : null} backIcon={back} onBack={onBack} right={right}>
          <h1 className="page-shell__title">{title}</h1>
        </NavBar>
      </header>
      <main className="page-shell__body">{children}</main>
    </div>
  )
}

/*
 * A section's state (components/read-state: loading, there, or missing from the server), which
 * only pages use: pages take it from here so that it shares the shell's chunk. In a chunk of its own
 * it would be one more dependency listed for every page in the first screen's script (the bundle
 * budget, docs/client.md#the-first-screen).
 */
export { type Availability, availabilityOf, ReadState, UNSUPPORTED_NOTE } from '../read-state/read-state'
