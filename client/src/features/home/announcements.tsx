import { apiFetcher, apiKey, useApi } from '@client/lib/use-api'
import { announcement } from '@shared/contract/account'
import NoticeBar from 'antd-mobile/es/components/notice-bar'
import { preload } from 'swr'

/** The SWR key of the announcements, for the home page's refresh. */
export const announcementsKey = () => apiKey(announcement)

// The request goes out as soon as this code has loaded, while the page renders the line.
preload(announcementsKey(), apiFetcher)

/**
 * The announcements line of the home page. Loaded after the first screen (home-page.tsx), with the
 * notice bar and the contract's schemas, which the rest of the page does not need.
 */
export function Announcements() {
  const { data } = useApi(announcement, undefined)
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
