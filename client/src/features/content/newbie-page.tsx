import { PageShell } from '@client/components/page-shell/page-shell'
import { useApi } from '@client/lib/use-api'
import { newbieGuide } from '@shared/contract/content'
import { ArticleList } from './article-list'
import './content.css'

export function NewbiePage() {
  const { data } = useApi(newbieGuide, undefined)
  return (
    <PageShell title="新手指引">
      <div className="content">
        <p className="content__intro">第一次使用？按下面的步骤完成注册、充值、游戏与提现。</p>
        <ArticleList articles={data?.list} defaultOpen={data?.list[0]?.id} />
      </div>
    </PageShell>
  )
}
