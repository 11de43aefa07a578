import { PageShell } from '@client/components/page-shell/page-shell'
import { LOGIN_QUERY, paths } from '@client/config/paths'
import { takeAfterLogin } from '@client/lib/return-to'
import Tabs from 'antd-mobile/es/components/tabs'
import { useNavigate, useSearchParams } from 'react-router-dom'
import { LoginForm } from './login-form'
import { RegisterForm } from './register-form'
import './login-page.css'

type Mode = 'login' | 'register'

/** Login and register. `?isreg=1` opens the register form; `?isreg=0` is where a lost session lands. */
export function LoginPage() {
  const [params, setParams] = useSearchParams()
  const navigate = useNavigate()
  const mode: Mode = params.get(LOGIN_QUERY) === '1' ? 'register' : 'login'
  const sessionLost = params.get(LOGIN_QUERY) === '0'

  const switchTo = (next: string) => {
    const copy = new URLSearchParams(params)
    copy.set(LOGIN_QUERY, next === 'register' ? '1' : '0')
    if (next === 'login') copy.delete(LOGIN_QUERY)
    setParams(copy, { replace: true })
  }
  // Back to the page a lost session or a login prompt came from, else home.
  const done = () => navigate(takeAfterLogin() ?? paths.home, { replace: true })

  return (
    <PageShell title={mode === 'register' ? '注册' : '登录'}>
      <div className="login-page">
        <div className="login-page__brand">
          <h2 className="login-page__welcome">{mode === 'register' ? '创建账号' : '欢迎回来'}</h2>
          <p className="login-page__hint">
            {sessionLost ? '登录已失效，请重新登录。' : '使用手机号登录，畅玩区块哈希游戏。'}
          </p>
        </div>
        <Tabs activeKey={mode} onChange={switchTo} className="login-page__tabs">
          <Tabs.Tab title="登录" key="login">
            <LoginForm onDone={done} />
          </Tabs.Tab>
          <Tabs.Tab title="注册" key="register">
            <RegisterForm onDone={done} />
          </Tabs.Tab>
        </Tabs>
      </div>
    </PageShell>
  )
}
