import { availabilityOf, PageShell, ReadState } from '@client/components/page-shell/page-shell'
import { paths } from '@client/config/paths'
import { useApi } from '@client/lib/use-api'
import { activityImages } from '@shared/contract/content'
import Empty from 'antd-mobile/es/components/empty'
import ImageViewer from 'antd-mobile/es/components/image-viewer'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { Link } from 'react-router-dom'
import './content.css'

/** Every current activity's posters; a tap opens them full screen (long-press there to save). */
export function ActivityImagesPage() {
  const { data, error, mutate } = useApi(activityImages, {})
  const urls = data?.list.map((image) => image.url) ?? []
  return (
    <PageShell title="活动海报" fallback={paths.activity}>
      <div className="content">
        <p className="content__intro">点击图片查看大图，长按即可保存后分享。</p>
        <ReadState
          availability={availabilityOf(data, error)}
          onRetry={() => void mutate()}
          loading={<Skeleton.Paragraph lineCount={8} animated />}
        >
          {null}
        </ReadState>
        {data?.list.length === 0 ? <Empty className="content__empty" description="暂无活动海报" /> : null}
        <div className="content__images">
          {data?.list.map((image, index) => (
            <figure key={image.url} className="content__card">
              <button
                type="button"
                className="content__image-button"
                onClick={() => ImageViewer.Multi.show({ images: urls, defaultIndex: index })}
                aria-label={`查看大图：${image.alt}`}
              >
                <img className="content__cover" src={image.url} alt={image.alt} loading="lazy" />
              </button>
              <figcaption className="content__meta">
                <span>{image.alt}</span>
                <Link to={`${paths.activityDetail}?id=${image.activity_id}`}>活动详情</Link>
              </figcaption>
            </figure>
          ))}
        </div>
      </div>
    </PageShell>
  )
}
