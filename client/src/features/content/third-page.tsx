import { availabilityOf, PageShell, ReadState } from '@client/components/page-shell/page-shell'
import { paths } from '@client/config/paths'
import { useApi } from '@client/lib/use-api'
import { thirdPartyPages } from '@shared/contract/content'
import Button from 'antd-mobile/es/components/button'
import List from 'antd-mobile/es/components/list'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { useNavigate, useSearchParams } from 'react-router-dom'
import { allowedThirdParty } from './content-format'
import './content.css'

/** A partner's page in a frame, only when the server's allow-list names it. */
export function ThirdPage() {
  const navigate = useNavigate()
  const [params] = useSearchParams()
  const key = params.get('key')
  const { data, error, mutate } = useApi(thirdPartyPages, undefined)
  const page = data ? allowedThirdParty(data.list, key) : null

  if (!data) {
    return (
      <PageShell title="第三方页面">
        <ReadState
          availability={availabilityOf(data, error)}
          onRetry={() => void mutate()}
          note="当前服务暂无合作页面。"
          loading={<Skeleton.Paragraph lineCount={6} animated />}
        >
          {null}
        </ReadState>
        {error ? (
          <div className="content">
            <Button block onClick={() => navigate(paths.home)}>
              返回首页
            </Button>
          </div>
        ) : null}
      </PageShell>
    )
  }

  if (!page) {
    return (
      <PageShell title="第三方页面">
        <div className="content">
          {key ? (
            <section className="content__card" role="alert">
              <h2 className="content__title">无法打开此页面</h2>
              <p className="content__intro">该页面不在平台允许的合作页面列表中，为了您的安全已拒绝打开。</p>
            </section>
          ) : (
            <p className="content__intro">以下合作页面经平台审核，可在此打开。</p>
          )}
          {data.list.length > 0 ? (
            <List className="content__list" header="合作页面">
              {data.list.map((item) => (
                <List.Item
                  key={item.key}
                  arrowIcon
                  onClick={() => navigate(`${paths.third}?key=${encodeURIComponent(item.key)}`)}
                >
                  {item.title}
                </List.Item>
              ))}
            </List>
          ) : null}
          <Button block onClick={() => navigate(paths.home)}>
            返回首页
          </Button>
        </div>
      </PageShell>
    )
  }

  return (
    <PageShell title={page.title}>
      <iframe
        className="content__frame"
        title={page.title}
        src={page.url}
        // The partner's page runs in its own origin; no top navigation, no access to ours.
        sandbox="allow-scripts allow-same-origin allow-forms allow-popups"
        referrerPolicy="no-referrer"
      />
    </PageShell>
  )
}
