import type { ApiError } from '@client/lib/http'
import type { AnnouncementList } from '@shared/contract/first-screen'
import useSWR from 'swr'
import { announcementsKey, fetchAnnouncements } from './announcements-request'
import { NoticeLine } from './notice-line'

/** The announcements line of the home page: every announcement, one after the other, on one line. */
export function Announcements() {
  const { data } = useSWR<AnnouncementList, ApiError, typeof announcementsKey>(
    announcementsKey,
    fetchAnnouncements,
  )
  if (!data?.list[0]) return <div className="home-page__notice-placeholder" />
  return <NoticeLine text={data.list.map((item) => `${item.title}：${item.content}`).join('　　')} />
}
