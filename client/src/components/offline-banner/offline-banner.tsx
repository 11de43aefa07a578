import { connectivity, useOnline } from '@client/lib/connectivity'
import { callApi } from '@client/lib/http'
import { MSG } from '@shared/messages'
import { useEffect } from 'react'
import { useSWRConfig } from 'swr'
import './offline-banner.css'

/** How often the banner asks whether the server can be reached again. */
export const OFFLINE_PROBE_MS = 5_000

/**
 * One line at the top of every page while the server cannot be reached. It asks the server now
 * and then (a call that fails while offline shows no toast) and, once it answers, the banner goes
 * and every list on the page loads again.
 */
export function OfflineBanner() {
  const online = useOnline()
  const { mutate } = useSWRConfig()

  useEffect(() => connectivity.onReconnect(() => void mutate(() => true)), [mutate])

  useEffect(() => {
    if (online) return
    const id = window.setInterval(() => {
      // The content contract (and zod) is loaded on the first probe, not with the first screen.
      import('@shared/contract/content').then(({ ping }) => callApi(ping)).catch(() => undefined)
    }, OFFLINE_PROBE_MS)
    return () => window.clearInterval(id)
  }, [online])

  if (online) return null
  return (
    <div className="offline-banner" role="status" data-testid="offline-banner">
      {MSG.network}
    </div>
  )
}
