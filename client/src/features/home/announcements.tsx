import { paths } from '@client/config/paths'
import { useEffect } from 'react'
import { Link } from 'react-router-dom'
import { useAnnouncements } from './announcements-request'
import { NoticeLine } from './notice-line'

/** The announcements line of the home page: every announcement, one after the other, on one line. */
export function Announcements() {
  const { data, mutate } = useAnnouncements()
  // A new announcement on the push channel (its publish time came): the line is read again. The
  // channel's code loads after the first screen (main.tsx), so it is imported here, not in the entry.
  useEffect(() => {
    let stop: (() => void) | undefined
    let unmounted = false
    void import('@client/lib/live').then(({ liveStream }) => {
      if (!unmounted) stop = liveStream.on('announcement', () => void mutate())
    })
    return () => {
      unmounted = true
      stop?.()
    }
  }, [mutate])
  if (!data?.list[0]) return <div className="home-page__notice-placeholder" />
  // A tap opens the list, where each announcement can be read whole.
  return (
    <Link to={paths.announcements} className="home-page__notice-link">
      <NoticeLine text={data.list.map((item) => `${item.title}：${item.content}`).join('　　')} />
    </Link>
  )
}
