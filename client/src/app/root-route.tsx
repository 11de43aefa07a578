import { useEffect } from 'react'
import { Outlet, ScrollRestoration, useMatches } from 'react-router-dom'
import { OfflineBanner } from '../components/offline-banner/offline-banner'
import { isRouteHandle } from './route-handle'

const APP_NAME = '哈希游戏'

/** The root of every page: keeps the document title in step with the route. */
export function RootRoute() {
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
    </>
  )
}
