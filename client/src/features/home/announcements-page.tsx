import { DateTimeText } from '@client/components/date-time-text/date-time-text'
import { PageShell } from '@client/components/page-shell/page-shell'
import { TimeZoneNote } from '@client/components/time-zone-note/time-zone-note'
import Skeleton from 'antd-mobile/es/components/skeleton'
import type { ReactNode } from 'react'
import { useAnnouncements } from './announcements-request'
import './announcements-page.css'

/**
 * Every announcement, pinned ones first as the server orders them: the title and time of each,
 * its whole text one tap away. The home page's line leads here. Shares the line's data (one
 * request, one cache entry), so what the line scrolled is what this page lists.
 */
export function AnnouncementsPage() {
  const { data, error } = useAnnouncements()
  let body: ReactNode
  if (data) {
    body =
      data.list.length === 0 ? (
        <p className="announcements__empty">暂无公告</p>
      ) : (
        <ul className="announcements__list">
          {data.list.map((item, index) => (
            <li key={item.id}>
              <details className="announcements__item" open={index === 0}>
                <summary className="announcements__summary">
                  <span className="announcements__title">
                    {item.pinned ? <span className="announcements__pin">置顶</span> : null}
                    {item.title}
                  </span>
                  <span className="announcements__time">
                    <DateTimeText ms={item.published_at} precision="minute" />
                  </span>
                </summary>
                <p className="announcements__content">{item.content}</p>
              </details>
            </li>
          ))}
        </ul>
      )
  } else if (error) {
    body = <p className="announcements__empty">公告加载失败，下拉首页或稍后再试。</p>
  } else {
    body = <Skeleton.Paragraph lineCount={6} animated />
  }
  return (
    <PageShell title="公告">
      <div className="announcements">
        {body}
        {data && data.list.length > 0 ? <TimeZoneNote /> : null}
      </div>
    </PageShell>
  )
}
