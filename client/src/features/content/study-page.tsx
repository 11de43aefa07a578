import { studyArticles } from '../../../../shared/contract/content'
import { PageShell } from '../../components/page-shell/page-shell'
import { useApi } from '../../lib/use-api'
import { ArticleList } from './article-list'
import './content.css'

export function StudyPage() {
  const { data } = useApi(studyArticles, undefined)
  return (
    <PageShell title="教程">
      <div className="content">
        <p className="content__intro">各游戏的玩法与规则，以及如何用区块哈希核验开奖结果。</p>
        <ArticleList articles={data?.list} />
      </div>
    </PageShell>
  )
}
