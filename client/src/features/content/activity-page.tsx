import { NumText } from '@client/components/num-text/num-text'
import { availabilityOf, PageShell, ReadState } from '@client/components/page-shell/page-shell'
import { TimeZoneNote } from '@client/components/time-zone-note/time-zone-note'
import { paths } from '@client/config/paths'
import { useApi } from '@client/lib/use-api'
import { activityList } from '@shared/contract/content'
import Empty from 'antd-mobile/es/components/empty'
import PullToRefresh from 'antd-mobile/es/components/pull-to-refresh'
import Skeleton from 'antd-mobile/es/components/skeleton'
import Tag from 'antd-mobile/es/components/tag'
import { Link } from 'react-router-dom'
import { ACTIVITY_STATUS, activityPeriod } from './content-format'
import './content.css'

export const activityDetailPath = (id: number) => `${paths.activityDetail}?id=${id}`

/** The activity tab: every activity, ongoing first, each leading to its detail. */
export function ActivityPage() {
  const { data, error, mutate } = useApi(activityList, undefined)
  return (
    <PageShell
      title="活动"
      back={false}
      right={
        <Link className="content__nav-link" to={paths.activityImages}>
          活动海报
        </Link>
      }
    >
      <PullToRefresh onRefresh={async () => void (await mutate())}>
        <div className="content">
          <ReadState
            availability={availabilityOf(data, error)}
            onRetry={() => void mutate()}
            note="当前服务暂不支持活动，敬请期待。"
            loading={<Skeleton.Paragraph lineCount={8} animated />}
          >
            {null}
          </ReadState>
          {data?.list.length === 0 ? <Empty className="content__empty" description="暂无活动" /> : null}
          {data && data.list.length > 0 ? <TimeZoneNote /> : null}
          {data?.list.map((activity) => {
            const status = ACTIVITY_STATUS[activity.status]
            return (
              <Link key={activity.id} className="content__card" to={activityDetailPath(activity.id)}>
                <img className="content__cover" src={activity.cover} alt="" loading="lazy" />
                <h2 className="content__title">{activity.title}</h2>
                <p className="content__intro">{activity.summary}</p>
                <span className="content__meta">
                  <Tag color={status.color}>{status.label}</Tag>
                  <span>{activity.category}</span>
                  <span>
                    <NumText text={activityPeriod(activity.starts_at, activity.ends_at)} />
                  </span>
                </span>
              </Link>
            )
          })}
        </div>
      </PullToRefresh>
    </PageShell>
  )
}
