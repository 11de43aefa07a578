import { availabilityOf, PageShell, ReadState } from '@client/components/page-shell/page-shell'
import { paths } from '@client/config/paths'
import { useApi } from '@client/lib/use-api'
import { studyArticles } from '@shared/contract/content'
import { Link } from 'react-router-dom'
import { ArticleList } from './article-list'
import './content.css'

export function StudyPage() {
  const { data, error, mutate } = useApi(studyArticles, undefined)
  return (
    <PageShell title="教程">
      <div className="content">
        <p className="content__intro">各游戏的玩法与规则，以及如何用区块哈希核验开奖结果。</p>
        <p className="content__intro" data-testid="study-verify">
          想核对某一期？在<Link to={paths.betHistory}>投注记录</Link>
          中点注单的“验证结果”，验证页会在你的浏览器里重新计算并逐步对比。
        </p>
        <ReadState availability={availabilityOf(data, error)} onRetry={() => void mutate()}>
          <ArticleList articles={data?.list} />
        </ReadState>
      </div>
    </PageShell>
  )
}
