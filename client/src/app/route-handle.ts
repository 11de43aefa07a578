import { createContext, useContext } from 'react'

/** What each route tells the shell about itself (the `handle` of its route object, app/router.tsx). */
export interface RouteHandle {
  /** The Chinese page title, shown in the nav bar and the document title. */
  title: string
  /** For pages whose feature is not built yet: what the page is for. */
  description?: string
  /** Where the back arrow leads when there is no history (deep links). */
  back?: string
}

export function isRouteHandle(value: unknown): value is RouteHandle {
  return typeof value === 'object' && value !== null && 'title' in value && typeof value.title === 'string'
}

/** The handle of the deepest matched route that has one; provided by app/router.tsx. */
export const RouteHandleContext = createContext<RouteHandle | undefined>(undefined)

export const useRouteHandle = (): RouteHandle | undefined => useContext(RouteHandleContext)
