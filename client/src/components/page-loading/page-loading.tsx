import './page-loading.css'

/** What a page shows while its code or first data loads; keeps the layout from jumping. */
export function PageLoading({ label = '加载中' }: { label?: string }) {
  return (
    <div className="page-loading" role="status" aria-live="polite">
      <span className="page-loading__dot" />
      <span className="page-loading__dot" />
      <span className="page-loading__dot" />
      <span className="visually-hidden">{label}</span>
    </div>
  )
}
