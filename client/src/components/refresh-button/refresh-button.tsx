import { useBusy } from '@client/lib/use-busy'
import './refresh-button.css'

/** A round arrow that spins while `onRefresh` runs. */
export function RefreshButton({
  onRefresh,
  label = '刷新',
}: {
  onRefresh: () => Promise<unknown>
  label?: string
}) {
  const [busy, run] = useBusy()
  const refresh = () => run(onRefresh)
  return (
    <button type="button" className="refresh-button" aria-label={label} aria-busy={busy} onClick={refresh}>
      <svg
        viewBox="0 0 24 24"
        width="18"
        height="18"
        aria-hidden="true"
        className={busy ? 'refresh-button__icon refresh-button__icon--spin' : 'refresh-button__icon'}
      >
        <path
          d="M20 12a8 8 0 1 1-2.3-5.6M20 4v4h-4"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
    </button>
  )
}
