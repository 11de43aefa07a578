import Collapse from 'antd-mobile/es/components/collapse'
import Empty from 'antd-mobile/es/components/empty'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { RichHtml } from './rich-html'

export interface Article {
  id: number
  title: string
  summary: string
  category: string
  content_html: string
}

/** Guides and articles as an accordion: titles and summaries first, the content on tap. */
export function ArticleList({
  articles,
  defaultOpen,
}: {
  articles: Article[] | undefined
  defaultOpen?: number
}) {
  if (!articles) return <Skeleton.Paragraph lineCount={6} animated />
  if (articles.length === 0) return <Empty className="content__empty" description="暂无内容" />
  return (
    <Collapse
      className="content__articles"
      accordion
      defaultActiveKey={defaultOpen === undefined ? null : String(defaultOpen)}
    >
      {articles.map((article) => (
        <Collapse.Panel
          key={String(article.id)}
          title={
            <span className="content__article-title">
              <span>{article.title}</span>
              <span className="content__article-summary">{article.summary}</span>
            </span>
          }
        >
          <RichHtml html={article.content_html} />
        </Collapse.Panel>
      ))}
    </Collapse>
  )
}
