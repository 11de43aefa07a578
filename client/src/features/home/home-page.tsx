import { BalanceText, HideAmountToggle, TrxBalance } from '@client/components/balance-text/balance-text'
import { ErrorBoundary } from '@client/components/error-boundary/error-boundary'
import { PullRefresh } from '@client/components/pull-refresh/pull-refresh'
import { RefreshButton } from '@client/components/refresh-button/refresh-button'
import { loginPath, paths } from '@client/config/paths'
import { refreshBalance } from '@client/lib/session-actions'
import { session, useSession } from '@client/lib/session-store'
import { Link } from 'react-router-dom'
import { useSWRConfig } from 'swr'
import { Announcements } from './announcements'
import { announcementsKey } from './announcements-request'
import { useBalanceOnMount } from './use-balance-on-mount'
import './home-page.css'

const GAMES = [
  { path: paths.gameBlock, name: '区块游戏', note: '链上哈希开奖', mark: '区' },
  { path: paths.gameHashSize, name: '哈希大小', note: '猜大小', mark: '哈' },
  { path: paths.gameFastThree, name: '快三', note: '三骰快开', mark: '快' },
  { path: paths.gameTimeColour, name: '时时彩', note: '定时开奖', mark: '时' },
  { path: paths.gameRacing, name: '赛车', note: '名次竞猜', mark: '赛' },
  { path: paths.gameTrend, name: '走势', note: '历史路单', mark: '势' },
] as const

const QUICK_LINKS = [
  { path: paths.topUp, name: '充值', mark: '+' },
  { path: paths.withdraw, name: '提现', mark: '−' },
  { path: paths.activity, name: '活动', mark: '★' },
  { path: paths.inviteFriends, name: '邀请', mark: '☺' },
] as const

export function HomePage() {
  const isLogin = useSession((s) => s.isLogin)
  const balance = useSession((s) => s.balance)
  const nickname = useSession((s) => s.userInfo?.nickname)
  const { mutate } = useSWRConfig()
  useBalanceOnMount()

  // Balance refresh while logged out leads to /login (docs/product.md#session-flows).
  const onRefresh = () => Promise.allSettled([mutate(announcementsKey), refreshBalance()])
  // Pulling down refreshes what the page shows; it never sends a logged-out visitor to /login.
  const onPull = () =>
    Promise.allSettled([mutate(announcementsKey), session.get().isLogin ? refreshBalance() : null])

  return (
    <PullRefresh onRefresh={onPull}>
      <div className="home-page">
        <header className="home-page__header">
          <h1 className="home-page__brand">哈希游戏</h1>
          {isLogin ? (
            <span className="home-page__greeting">{nickname ? `你好，${nickname}` : ''}</span>
          ) : (
            <Link className="home-page__login" to={loginPath()}>
              登录 / 注册
            </Link>
          )}
        </header>
        <div className="home-page__body">
          <ErrorBoundary label="公告">
            <Announcements />
          </ErrorBoundary>

          <section className="home-page__wallet" aria-label="钱包余额">
            <div className="home-page__wallet-top">
              <span className="home-page__wallet-label">账户余额</span>
              <span className="home-page__wallet-tools">
                <HideAmountToggle />
                <RefreshButton label="刷新余额" onRefresh={onRefresh} />
              </span>
            </div>
            <BalanceText balance={balance} />
            <TrxBalance />
            <nav className="home-page__quick" aria-label="快捷入口">
              {QUICK_LINKS.map((link) => (
                <Link key={link.path} to={link.path} className="home-page__quick-link">
                  <span className="home-page__quick-mark" aria-hidden="true">
                    {link.mark}
                  </span>
                  {link.name}
                </Link>
              ))}
            </nav>
          </section>

          <section aria-labelledby="home-games">
            <h2 id="home-games" className="home-page__section-title">
              热门游戏
            </h2>
            <div className="home-page__games">
              {GAMES.map((game) => (
                <Link key={game.path} to={game.path} className="home-page__game">
                  <span className="home-page__game-mark" aria-hidden="true">
                    {game.mark}
                  </span>
                  <span className="home-page__game-name">{game.name}</span>
                  <span className="home-page__game-note">{game.note}</span>
                </Link>
              ))}
            </div>
          </section>
        </div>
      </div>
    </PullRefresh>
  )
}
