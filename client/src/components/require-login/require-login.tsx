import { loginPath } from '@client/config/paths'
import { currentPath, rememberForLogin } from '@client/lib/return-to'
import { useSession } from '@client/lib/session-store'
import type { ReactNode } from 'react'
import { Link } from 'react-router-dom'
import { StatusPage } from '../status-page/status-page'

/** Shows its children to a logged-in user; anyone else gets a way to log in. */
export function RequireLogin({ children }: { children: ReactNode }) {
  const isLogin = useSession((s) => s.isLogin)
  if (isLogin) return children
  return (
    <StatusPage
      title="请先登录"
      description="登录后即可使用此功能。"
      actions={
        <>
          <Link
            className="status-page__button"
            to={loginPath()}
            onClick={() => rememberForLogin(currentPath())}
          >
            登录
          </Link>
          <Link
            className="status-page__button status-page__button--ghost"
            to={loginPath(1)}
            onClick={() => rememberForLogin(currentPath())}
          >
            注册
          </Link>
        </>
      }
    />
  )
}
