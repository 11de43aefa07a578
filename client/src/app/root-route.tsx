import { lazy, Suspense, useEffect } from 'react'
import { Outlet } from 'react-router-dom'
import { OfflineBanner } from '../components/offline-banner/offline-banner'
import { PageLoading } from '../components/page-loading/page-loading'
import { useSession } from '../lib/session-store'
import { useReturnAfterLogin } from './login-return'
import { useRouteHandle } from './route-handle'
import { ScrollRestoration } from './scroll-restoration'

/** Loaded only once someone is logged in, so the first screen does not carry it. */
const RealityCheckWatch = lazy(() =>
  import('../features/protection/reality-check').then((m) => ({ default: m.RealityCheckWatch })),
)

const APP_NAME = '哈希游戏'

/**
 * The root of every page: keeps the document title in step with the route; the reality check.
 * While a page's code loads the page before stays (navigations are transitions); on the first
 * load there is none, and the loading page stands in.
 */
export function RootRoute() {
  const isLogin = useSession((s) => s.isLogin)
  const title = useRouteHandle()?.title
  useReturnAfterLogin()

  useEffect(() => {
    document.title = title ? `${title} - ${APP_NAME}` : APP_NAME
  }, [title])

  return (
    <>
      <OfflineBanner />
      <Suspense fallback={<PageLoading />}>
        <Outlet />
      </Suspense>
      <ScrollRestoration />
      {isLogin ? (
        <Suspense fallback={null}>
          <RealityCheckWatch />
        </Suspense>
      ) : null}
    </>
  )
}
