import { callRoute } from '@client/lib/http'
import { type AnnouncementList, announcementRoute, readAnnouncementList } from '@shared/contract/first-screen'
import { preload } from 'swr'

/**
 * The announcements request, without zod (docs/client.md#the-first-screen): its route and a plain
 * reader of the answer, part of the entry so that the request can leave as the app starts.
 */

/** The SWR key of the announcements (the same shape as lib/use-api.ts's keys). */
export const announcementsKey = [announcementRoute.path, null] as const

export const fetchAnnouncements = (): Promise<AnnouncementList> =>
  callRoute(announcementRoute, readAnnouncementList)

/** Sends the request now; the line (announcements.tsx) takes its answer when it renders. */
export function preloadAnnouncements(): void {
  // A failure is shown by callRoute and reaches the line through SWR; nothing to do here.
  preload(announcementsKey, fetchAnnouncements)?.catch(() => undefined)
}
