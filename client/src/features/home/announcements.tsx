import type { ApiError } from '@client/lib/http'
import type { AnnouncementList } from '@shared/contract/first-screen'
import NoticeBar from 'antd-mobile/es/components/notice-bar'
import useSWR from 'swr'
import { announcementsKey, fetchAnnouncements } from './announcements-request'

/**
 * The announcements line of the home page. Loaded after the first screen (home-page.tsx), with the
 * notice bar, which the rest of the page does not need. Its request is already on its way
 * (announcements-request.ts) and is read without zod.
 */
export function Announcements() {
  const { data } = useSWR<AnnouncementList, ApiError, typeof announcementsKey>(
    announcementsKey,
    fetchAnnouncements,
  )
  const first = data?.list[0]
  if (!first) return <div className="home-page__notice-placeholder" />
  return (
    <NoticeBar
      className="home-page__notice"
      color="info"
      content={data.list.map((item) => `${item.title}：${item.content}`).join('　　')}
    />
  )
}
