import { paths } from '@client/config/paths'
import { type ApiError, type CallOptions, callRoute } from '@client/lib/http'
import { storage } from '@client/lib/storage'
import { type AnnouncementList, announcementRoute, readAnnouncementList } from '@shared/contract/first-screen'
import { matchPath } from 'react-router-dom'
import useSWR, { mutate, preload } from 'swr'

/**
 * The announcements request, without zod (docs/client.md#the-first-screen): its route and a plain
 * reader of the answer, part of the entry.
 */

/** The SWR key of the announcements (the same shape as lib/use-api.ts's keys). */
export const announcementsKey = [announcementRoute.path, null] as const

/**
 * How the call is sent. index.html's preload carries no token, and Chromium hands it to a fetch of
 * the same URL whatever that fetch's headers: a logged-in player's call would then be the tokenless
 * preload. With a token stored the call is sent past the preload (`bypassPreload`), with the
 * token, as every call with a stored token is (docs/client.md#the-first-screen).
 */
function sendOptions(quiet: boolean): CallOptions {
  return { quiet, bypassPreload: storage.token() !== null }
}

/** SWR's fetcher for the line (it takes no argument: SWR passes the key). */
export const fetchAnnouncements = (): Promise<AnnouncementList> =>
  callRoute(announcementRoute, readAnnouncementList, {}, sendOptions(false))

/** The announcements as the home line and the list page read them: one request, one cache entry. */
export const useAnnouncements = () =>
  useSWR<AnnouncementList, ApiError, typeof announcementsKey>(announcementsKey, fetchAnnouncements)

const ignore = () => undefined

/**
 * index.html asks for the announcements as the page loads, whatever the route (vite.config.ts), and
 * the browser hands that answer to the app's first request for them, made here as the app starts.
 * On /home the line takes it as it first renders, a failure shown as any other. On another route it
 * goes quietly into SWR's cache, where the home page finds it (and asks again, as SWR does).
 */
export function takeAnnouncements(pathname: string): void {
  // The root redirects to /home.
  if (matchPath(paths.home, pathname) || matchPath(paths.root, pathname)) {
    preload(announcementsKey, fetchAnnouncements)?.catch(ignore)
    return
  }
  const quiet = callRoute(announcementRoute, readAnnouncementList, {}, sendOptions(true))
  mutate(announcementsKey, quiet, { revalidate: false }).catch(ignore)
}
