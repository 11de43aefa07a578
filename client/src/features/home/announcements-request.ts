import { paths } from '@client/config/paths'
import { callRoute } from '@client/lib/http'
import { type AnnouncementList, announcementRoute, readAnnouncementList } from '@shared/contract/first-screen'
import { matchPath } from 'react-router-dom'
import { mutate, preload } from 'swr'

/**
 * The announcements request, without zod (docs/client.md#the-first-screen): its route and a plain
 * reader of the answer, part of the entry.
 */

/** The SWR key of the announcements (the same shape as lib/use-api.ts's keys). */
export const announcementsKey = [announcementRoute.path, null] as const

/** SWR's fetcher for the line (it takes no argument: SWR passes the key). */
export const fetchAnnouncements = (): Promise<AnnouncementList> =>
  callRoute(announcementRoute, readAnnouncementList)

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
  const quiet = callRoute(announcementRoute, readAnnouncementList, {}, { quiet: true })
  mutate(announcementsKey, quiet, { revalidate: false }).catch(ignore)
}
