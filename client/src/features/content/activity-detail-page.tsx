import { NumText } from '@client/components/num-text/num-text'
import { PageShell } from '@client/components/page-shell/page-shell'
import { TimeZoneNote } from '@client/components/time-zone-note/time-zone-note'
import { paths } from '@client/config/paths'
import { isEndpointMissing } from '@client/lib/endpoint-status'
import { useApi } from '@client/lib/use-api'
import { activityDetail } from '@shared/contract/content'
import { idParam } from '@shared/contract/fields'
import Button from 'antd-mobile/es/components/button'
import Skeleton from 'antd-mobile/es/components/skeleton'
import Tag from 'antd-mobile/es/components/tag'
import { Link, useSearchParams } from 'react-router-dom'
import { ACTIVITY_STATUS, activityPeriod } from './content-format'
import { RichHtml } from './rich-html'
import './content.css'

function Detail({ id }: { id: number }) {
  const { data, error } = useApi(activityDetail, { id })
  if (isEndpointMissing(error)) {
    return (
      <div className="content">
        <p className="content__intro" data-testid="endpoint-missing">
          当前服务暂不支持查看活动详情。
        </p>
        <Link to={paths.activity}>
          <Button block>查看全部活动</Button>
        </Link>
      </div>
    )
  }
  if (error) {
    return (
      <div className="content">
        <p className="content__intro">活动不存在或已下线。</p>
        <Link to={paths.activity}>
          <Button block>查看全部活动</Button>
        </Link>
      </div>
    )
  }
  if (!data) return <Skeleton.Paragraph lineCount={10} animated />
  const status = ACTIVITY_STATUS[data.status]
  // The rich content often shows some of the images itself; those are not repeated below it.
  const extraImages = data.images.filter((image) => !data.content_html.includes(image.url))
  return (
    <article className="content">
      <img className="content__cover" src={data.cover} alt="" />
      <h2 className="content__title">{data.title}</h2>
      <span className="content__meta">
        <Tag color={status.color}>{status.label}</Tag>
        <span>
          <NumText text={activityPeriod(data.starts_at, data.ends_at)} />
        </span>
      </span>
      <TimeZoneNote />
      <div className="content__card">
        <div data-public-figure>
          <RichHtml html={data.content_html} />
        </div>
      </div>
      {extraImages.length > 0 ? (
        <div className="content__images">
          {extraImages.map((image) => (
            <img key={image.url} className="content__cover" src={image.url} alt={image.alt} loading="lazy" />
          ))}
        </div>
      ) : null}
    </article>
  )
}

export function ActivityDetailPage() {
  const [params] = useSearchParams()
  const id = idParam.safeParse(params.get('id') ?? '')
  return (
    <PageShell title="活动详情" fallback={paths.activity}>
      {id.success ? (
        <Detail id={id.data} />
      ) : (
        <div className="content">
          <p className="content__intro">链接中缺少活动编号。</p>
          <Link to={paths.activity}>
            <Button block>查看全部活动</Button>
          </Link>
        </div>
      )}
    </PageShell>
  )
}
