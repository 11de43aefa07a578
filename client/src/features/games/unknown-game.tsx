import { StatusPage } from '@client/components/status-page/status-page'
import { paths } from '@client/config/paths'
import { Link } from 'react-router-dom'

/** A games path whose game code is not one of ours. */
export function UnknownGame() {
  return (
    <StatusPage
      title="没有这个游戏"
      description="请从首页进入游戏。"
      actions={
        <Link className="status-page__button" to={paths.home}>
          返回首页
        </Link>
      }
    />
  )
}
