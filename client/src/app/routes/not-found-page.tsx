import { StatusPage } from '@client/components/status-page/status-page'
import { paths } from '@client/config/paths'
import { Link } from 'react-router-dom'

export function NotFoundPage() {
  return (
    <StatusPage
      title="页面不存在"
      description="您访问的页面不存在或已被移除。"
      actions={
        <Link className="status-page__button" to={paths.home} replace>
          返回首页
        </Link>
      }
    />
  )
}
