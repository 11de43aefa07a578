import { boolean, int, readArray, readObject, string } from '../plain-read'
import type { EndpointRoute } from './endpoint'

/**
 * The calls the client's first screen makes, as routes without schemas, so that the client can send
 * them from its entry chunk, which carries no zod (docs/client.md#the-first-screen). account.ts builds
 * these endpoints from the routes here, so the server, OpenAPI and the client share one path and
 * method. This module must not import zod at run time.
 */

/** The home page's announcements line. */
export const announcementRoute = {
  method: 'GET',
  path: '/api/api2/announcement',
  auth: false,
} as const satisfies EndpointRoute

/** Start-up's check of a stored login. */
export const userInfoRoute = {
  method: 'GET',
  path: '/api/users/info',
  auth: true,
} as const satisfies EndpointRoute

/** The balance, on start-up and on the home page. */
export const getBalanceRoute = {
  method: 'GET',
  path: '/api/api/getBalance',
  auth: true,
  loadingToast: false,
} as const satisfies EndpointRoute

/** One announcement; account.ts's `announcementSchema` parses exactly this shape. */
export interface Announcement {
  id: number
  title: string
  content: string
  pinned: boolean
  published_at: number
}

export interface AnnouncementList {
  list: Announcement[]
}

const readAnnouncement = (value: unknown): Announcement | null =>
  readObject<Announcement>(value, {
    id: int,
    title: string,
    content: string,
    pinned: boolean,
    published_at: int,
  })

/**
 * The announcements' `data` as account.ts's `announcement.data` parses it, or null where the schema
 * fails: the home page reads the answer with this, so the line does not wait for zod to load
 * (first-screen.test.ts holds the two to the same answers).
 */
export function readAnnouncementList(value: unknown): AnnouncementList | null {
  const data = readObject<{ list: unknown }>(value, { list: (list) => Array.isArray(list) })
  const list = data && readArray(data.list, readAnnouncement)
  return list ? { list } : null
}
