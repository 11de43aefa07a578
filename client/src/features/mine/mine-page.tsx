import { BalanceText, HideAmountToggle, TrxBalance } from '@client/components/balance-text/balance-text'
import { RefreshButton } from '@client/components/refresh-button/refresh-button'
import { loginPath, paths } from '@client/config/paths'
import { logOut, refreshBalance } from '@client/lib/session-actions'
import { session, useSession } from '@client/lib/session-store'
import Button from 'antd-mobile/es/components/button'
import Dialog from 'antd-mobile/es/components/dialog'
import List from 'antd-mobile/es/components/list'
import PullToRefresh from 'antd-mobile/es/components/pull-to-refresh'
import Switch from 'antd-mobile/es/components/switch'
import { useEffect } from 'react'
import { Link, useNavigate } from 'react-router-dom'
import './mine-page.css'

const ACCOUNT_LINKS = [
  { path: paths.finance, title: '资金明细' },
  { path: paths.betHistory, title: '投注记录' },
  { path: paths.topUpHistory, title: '充值记录' },
  { path: paths.walletAddresses, title: '钱包地址' },
  { path: paths.betAddresses, title: '投注地址' },
  { path: paths.exchange, title: '兑换' },
  { path: paths.rebate, title: '返水' },
  { path: paths.inviteFriends, title: '邀请好友' },
  { path: paths.performanceRecord, title: '业绩记录' },
  { path: paths.securityCenter, title: '安全中心' },
  { path: paths.newbie, title: '新手指引' },
  { path: paths.responsible, title: '负责任博彩' },
] as const

/** Help pages, also listed on the 客服 page. */
const HELP_LINKS = [
  { path: paths.study, title: '教程' },
  { path: paths.vpn, title: '网络帮助' },
  { path: paths.third, title: '合作页面' },
] as const

export function MinePage() {
  const navigate = useNavigate()
  const isLogin = useSession((s) => s.isLogin)
  const userInfo = useSession((s) => s.userInfo)
  const balance = useSession((s) => s.balance)
  const theme = useSession((s) => s.theme)
  const soundOn = useSession((s) => s.soundOn)

  useEffect(() => {
    if (session.get().isLogin) refreshBalance().catch(() => undefined)
  }, [])

  const confirmLogout = async () => {
    const ok = await Dialog.confirm({
      content: '确定要退出登录吗？',
      confirmText: '退出',
      cancelText: '取消',
    })
    if (ok) await logOut()
  }

  return (
    <PullToRefresh onRefresh={() => (isLogin ? refreshBalance().catch(() => undefined) : Promise.resolve())}>
      <div className="mine-page">
        <header className="mine-page__profile">
          <div className="mine-page__avatar" aria-hidden="true">
            {(userInfo?.nickname ?? '游').slice(0, 1)}
          </div>
          {isLogin && userInfo ? (
            <div className="mine-page__who">
              <h1 className="mine-page__name">{userInfo.nickname}</h1>
              <p className="mine-page__meta">
                ID {userInfo.player_id} · {userInfo.phone} · VIP{userInfo.vip_level}
              </p>
            </div>
          ) : (
            <div className="mine-page__who">
              <h1 className="mine-page__name">未登录</h1>
              <p className="mine-page__meta">
                <Link to={loginPath()}>登录</Link> / <Link to={loginPath(1)}>注册</Link>
              </p>
            </div>
          )}
        </header>

        <section className="mine-page__wallet" aria-label="钱包余额">
          <div className="mine-page__wallet-top">
            <span>账户余额</span>
            <span className="mine-page__wallet-tools">
              <HideAmountToggle />
              <RefreshButton label="刷新余额" onRefresh={refreshBalance} />
            </span>
          </div>
          <BalanceText balance={balance} />
          <TrxBalance />
          <div className="mine-page__wallet-actions">
            <Link to={paths.topUp} className="mine-page__wallet-action">
              充值
            </Link>
            <Link to={paths.withdraw} className="mine-page__wallet-action">
              提现
            </Link>
          </div>
        </section>

        <List header="我的账户" className="mine-page__list">
          {ACCOUNT_LINKS.map((link) => (
            <List.Item key={link.path} onClick={() => navigate(link.path)} arrowIcon>
              {link.title}
            </List.Item>
          ))}
        </List>

        <List header="帮助" className="mine-page__list">
          {HELP_LINKS.map((link) => (
            <List.Item key={link.path} onClick={() => navigate(link.path)} arrowIcon>
              {link.title}
            </List.Item>
          ))}
        </List>

        <List header="设置" className="mine-page__list">
          <List.Item
            extra={
              <Switch
                checked={theme === 'dark'}
                onChange={() => session.toggleTheme()}
                aria-label="深色模式"
              />
            }
          >
            深色模式
          </List.Item>
          <List.Item
            extra={<Switch checked={soundOn} onChange={(on) => session.setSoundOn(on)} aria-label="声音" />}
          >
            声音
          </List.Item>
        </List>

        {isLogin ? (
          <div className="mine-page__logout">
            <Button block color="danger" fill="outline" size="large" onClick={confirmLogout}>
              退出登录
            </Button>
          </div>
        ) : null}
      </div>
    </PullToRefresh>
  )
}
