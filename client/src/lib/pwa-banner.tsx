import { useSyncExternalStore } from 'react'
import { createRoot } from 'react-dom/client'
import { PWA_TEXT, type PwaStatus } from './pwa-status'
import './pwa-banner.css'

/** The offline notice and the "new version" button, over whatever page is open. */
export function PwaBanner({ status }: { status: PwaStatus }) {
  const state = useSyncExternalStore(status.subscribe, status.get, status.get)
  if (!state.offline && !state.updateReady) return null
  return (
    <div className="pwa-banner">
      {state.offline ? (
        <div className="pwa-banner__item pwa-banner__item--offline" role="status" aria-live="polite">
          {PWA_TEXT.offline}
        </div>
      ) : null}
      {state.updateReady ? (
        <button
          type="button"
          className="pwa-banner__item pwa-banner__item--update"
          disabled={state.updating}
          onClick={() => void status.applyUpdate()}
        >
          {state.updating ? PWA_TEXT.updating : PWA_TEXT.update}
        </button>
      ) : null}
    </div>
  )
}

/** Renders the banner in its own element at the end of <body>, outside the app's tree. */
export function mountPwaBanner(status: PwaStatus, doc: Document = document): () => void {
  const host = doc.createElement('div')
  host.id = 'pwa-banner'
  doc.body.append(host)
  const root = createRoot(host)
  root.render(<PwaBanner status={status} />)
  return () => {
    root.unmount()
    host.remove()
  }
}
