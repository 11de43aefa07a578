import type { ReactNode } from 'react'
import './status-page.css'

export interface StatusPageProps {
  title: string
  description: ReactNode
  /** Buttons or links that get the user going again. */
  actions: ReactNode
}

/**
 * A whole-screen message (not found, a page that failed to load). Plain markup and our own CSS
 * only, so it renders even when a lazy chunk or a UI library piece is what failed.
 */
export function StatusPage({ title, description, actions }: StatusPageProps) {
  return (
    <section className="status-page" role="alert">
      <svg className="status-page__art" viewBox="0 0 120 80" aria-hidden="true">
        <rect
          x="10"
          y="14"
          width="100"
          height="56"
          rx="10"
          fill="none"
          stroke="currentColor"
          strokeWidth="4"
        />
        <circle cx="44" cy="40" r="5" fill="currentColor" />
        <circle cx="76" cy="40" r="5" fill="currentColor" />
        <path d="M46 58q14-10 28 0" fill="none" stroke="currentColor" strokeWidth="4" strokeLinecap="round" />
      </svg>
      <h1 className="status-page__title">{title}</h1>
      <p className="status-page__description">{description}</p>
      <div className="status-page__actions">{actions}</div>
    </section>
  )
}
