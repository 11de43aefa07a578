import { availabilityOf, PageShell, ReadState } from '@client/components/page-shell/page-shell'
import { paths } from '@client/config/paths'
import { useApi } from '@client/lib/use-api'
import { newbieGuide } from '@shared/contract/content'
import List from 'antd-mobile/es/components/list'
import { useNavigate } from 'react-router-dom'
import { ArticleList } from './article-list'
import './content.css'

export function NewbiePage() {
  const { data, error, mutate } = useApi(newbieGuide, undefined)
  const navigate = useNavigate()
  return (
    <PageShell title="新手指引">
      <div className="content">
        <p className="content__intro">第一次使用？按下面的步骤完成注册、充值、游戏与提现。</p>
        <ReadState
          availability={availabilityOf(data, error)}
          onRetry={() => void mutate()}
          note="当前服务暂不提供新手指引，可先查看下方的更多帮助。"
        >
          <ArticleList articles={data?.list} defaultOpen={data?.list[0]?.id} />
        </ReadState>
        <List className="content__list" header="更多帮助">
          <List.Item arrowIcon onClick={() => navigate(paths.study)}>
            教程
          </List.Item>
          <List.Item arrowIcon onClick={() => navigate(paths.vpn)}>
            网络帮助
          </List.Item>
          <List.Item arrowIcon onClick={() => navigate(paths.third)}>
            合作页面
          </List.Item>
          <List.Item arrowIcon onClick={() => navigate(paths.service)}>
            联系客服
          </List.Item>
        </List>
      </div>
    </PageShell>
  )
}
