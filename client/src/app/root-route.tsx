import { lazy, Suspense, useEffect } from 'react'
import { Outlet, ScrollRestoration, useMatches } from 'react-router-dom'
import { OfflineBanner } from '../components/offline-banner/offline-banner'
import { useSession } from '../lib/session-store'
import { isRouteHandle } from './route-handle'

/** Loaded only once someone is logged in, so the first screen does not carry it. */
const RealityCheckWatch = lazy(() =>
  import('../features/protection/reality-check').then((m) => ({ default: m.RealityCheckWatch })),
)

const APP_NAME = '哈希游戏'

/** The root of every page: keeps the document title in step with the route; the reality check. */
export function RootRoute() {
  const isLogin = useSession((s) => s.isLogin)
  const title = useMatches()
    .map((match) => match.handle)
    .findLast(isRouteHandle)?.title

  useEffect(() => {
    document.title = title ? `${title} - ${APP_NAME}` : APP_NAME
  }, [title])

  return (
    <>
      <OfflineBanner />
      <Outlet />
      <ScrollRestoration />
      {isLogin ? (
        <Suspense fallback={null}>
          <RealityCheckWatch />
        </Suspense>
      ) : null}
    </>
  )
}
