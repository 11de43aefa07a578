import { type ComponentType, lazy } from 'react'
import { matchRoutes, Navigate, type RouteObject, useLocation, useRoutes } from 'react-router-dom'
import { paths } from '../config/paths'
import { HomePage } from '../features/home/home-page'
import { isChunkLoadError } from '../lib/preload-recovery'
import { AppLayout } from './layout/app-layout'
import { RootRoute } from './root-route'
import { ChunkErrorPage, RouteBoundary } from './route-error'
import { isRouteHandle, type RouteHandle, RouteHandleContext } from './route-handle'
import { NotFoundPage } from './routes/not-found-page'

/**
 * Every route (docs/product.md#pages). Each page is its own lazily loaded module, except the home page and its
 * tab layout: most visits open /home first, so they are part of the entry (vite.config.ts puts the
 * entry's static imports into one chunk).
 *
 * Declarative routes (useRoutes), not the data router: the app loads no data through the router,
 * and the data router's code was 17 KB gzip of the first screen. What the app used of it is kept:
 * a page still loading leaves the previous one on screen (navigations are transitions; RootRoute
 * holds the Suspense boundary), each route has an error boundary (RouteBoundary), `handle` feeds
 * the titles (AppRoutes), and scroll positions are restored (scroll-restoration.tsx).
 */

type Load = () => Promise<ComponentType>

/**
 * A page's code failing to load becomes a page of its own (reload once, then say so), rendered
 * where the page would have been.
 */
const lazyPage = (load: Load) =>
  lazy(async () => {
    try {
      return { default: await load() }
    } catch (error) {
      if (!isChunkLoadError(error)) throw error
      console.warn('page code failed to load', error)
      return { default: ChunkErrorPage }
    }
  })

function page(path: string, handle: RouteHandle, load: Load): RouteObject {
  const Page = lazyPage(load)
  return {
    path,
    handle,
    element: (
      <RouteBoundary>
        <Page />
      </RouteBoundary>
    ),
  }
}

const tabs: RouteObject[] = [
  {
    path: paths.home,
    handle: { title: '首页' },
    element: (
      <RouteBoundary>
        <HomePage />
      </RouteBoundary>
    ),
  },
  page(paths.activity, { title: '活动' }, () =>
    import('../features/content/activity-page').then((m) => m.ActivityPage),
  ),
  page(paths.service, { title: '客服' }, () =>
    import('../features/content/service-page').then((m) => m.ServicePage),
  ),
  page(paths.mine, { title: '我的' }, () => import('../features/mine/mine-page').then((m) => m.MinePage)),
]

const standalone: RouteObject[] = [
  page(paths.login, { title: '登录' }, () =>
    import('../features/account/login-page').then((m) => m.LoginPage),
  ),
  page(paths.forgotPassword, { title: '忘记密码' }, () =>
    import('../features/account/forgot-password-page').then((m) => m.ForgotPasswordPage),
  ),
  page(paths.securityCenter, { title: '安全中心' }, () =>
    import('../features/security/security-center-page').then((m) => m.SecurityCenterPage),
  ),
  page(paths.passwordChange, { title: '修改登录密码' }, () =>
    import('../features/security/password-change-page').then((m) => m.PasswordChangePage),
  ),
  page(paths.payPasswordChange, { title: '支付密码' }, () =>
    import('../features/security/pay-password-page').then((m) => m.PayPasswordPage),
  ),
  page(paths.topUp, { title: '充值' }, () =>
    import('../features/wallet/top-up-page').then((m) => m.TopUpPage),
  ),
  page(paths.withdraw, { title: '提现', back: paths.mine }, () =>
    import('../features/wallet/withdraw-page').then((m) => m.WithdrawPage),
  ),
  page(paths.newbie, { title: '新手指引' }, () =>
    import('../features/content/newbie-page').then((m) => m.NewbiePage),
  ),
  page(paths.betHistory, { title: '投注记录', back: paths.mine }, () =>
    import('../features/games/bet-history-page').then((m) => m.BetHistoryPage),
  ),
  page(paths.verify, { title: '验证' }, () =>
    import('../features/games/verify-page').then((m) => m.VerifyPage),
  ),
  page(paths.walletAddresses, { title: '钱包地址', back: paths.mine }, () =>
    import('../features/wallet/addresses-page').then((m) => m.AddressesPage),
  ),
  page(paths.betAddresses, { title: '投注地址', back: paths.mine }, () =>
    import('../features/games/bet-address-page').then((m) => m.BetAddressPage),
  ),
  page(paths.exchange, { title: '兑换', back: paths.mine }, () =>
    import('../features/wallet/exchange-page').then((m) => m.ExchangePage),
  ),
  page(paths.topUpHistory, { title: '充值提现记录', back: paths.mine }, () =>
    import('../features/wallet/history-page').then((m) => m.HistoryPage),
  ),
  page(paths.rebate, { title: '返水', back: paths.mine }, () =>
    import('../features/agent/backwater-page').then((m) => m.BackwaterPage),
  ),
  page(paths.finance, { title: '资金明细', back: paths.mine }, () =>
    import('../features/wallet/fund-flow-page').then((m) => m.FundFlowPage),
  ),
  page(paths.vpn, { title: '网络帮助' }, () => import('../features/content/vpn-page').then((m) => m.VpnPage)),
  page(paths.prizePool, { title: '奖池' }, () =>
    import('../features/content/pond-page').then((m) => m.PondPage),
  ),
  page(paths.gameBlock, { title: '区块游戏' }, () =>
    import('../features/games/game-page').then((m) => m.GamePage),
  ),
  page(paths.gameTrend, { title: '走势' }, () =>
    import('../features/games/trend-page').then((m) => m.TrendPage),
  ),
  page(paths.gameHashSize, { title: '哈希大小' }, () =>
    import('../features/games/game-page').then((m) => m.GamePage),
  ),
  page(paths.gameFastThree, { title: '快三' }, () =>
    import('../features/games/game-page').then((m) => m.GamePage),
  ),
  page(paths.gameTimeColour, { title: '时时彩' }, () =>
    import('../features/games/game-page').then((m) => m.GamePage),
  ),
  page(paths.gameRacing, { title: '赛车' }, () =>
    import('../features/games/game-page').then((m) => m.GamePage),
  ),
  page(paths.gameResultsHistory, { title: '开奖记录' }, () =>
    import('../features/games/results-history-page').then((m) => m.ResultsHistoryPage),
  ),
  page(paths.gameRulesPage, { title: '游戏规则' }, () =>
    import('../features/games/rules-page').then((m) => m.RulesPage),
  ),
  page(paths.study, { title: '教程' }, () =>
    import('../features/content/study-page').then((m) => m.StudyPage),
  ),
  page(paths.inviteFriends, { title: '邀请好友', back: paths.mine }, () =>
    import('../features/agent/invite-friends-page').then((m) => m.InviteFriendsPage),
  ),
  page(paths.performanceRecord, { title: '业绩记录', back: paths.mine }, () =>
    import('../features/agent/performance-record-page').then((m) => m.PerformanceRecordPage),
  ),
  page(paths.third, { title: '第三方页面' }, () =>
    import('../features/content/third-page').then((m) => m.ThirdPage),
  ),
  page(paths.testBet, { title: '试玩投注' }, () =>
    import('../features/games/test-bet-page').then((m) => m.TestBetPage),
  ),
  page(paths.activityImages, { title: '活动海报', back: paths.activity }, () =>
    import('../features/content/activity-images-page').then((m) => m.ActivityImagesPage),
  ),
  page(paths.activityDetail, { title: '活动详情', back: paths.activity }, () =>
    import('../features/content/activity-detail-page').then((m) => m.ActivityDetailPage),
  ),
  page(paths.announcements, { title: '公告' }, () =>
    import('../features/home/announcements-page').then((m) => m.AnnouncementsPage),
  ),
  page(paths.responsible, { title: '负责任博彩' }, () =>
    import('../features/protection/responsible-page').then((m) => m.ResponsiblePage),
  ),
  page(paths.protection, { title: '游戏限制与自我保护', back: paths.responsible }, () =>
    import('../features/protection/protection-page').then((m) => m.ProtectionPage),
  ),
  page(paths.netPosition, { title: '输赢统计', back: paths.responsible }, () =>
    import('../features/protection/net-position-page').then((m) => m.NetPositionPage),
  ),
  page(paths.excludedWithdraw, { title: '暂停期提现', back: paths.responsible }, () =>
    import('../features/protection/excluded-withdraw-page').then((m) => m.ExcludedWithdrawPage),
  ),
]

export const routes: RouteObject[] = [
  {
    path: paths.root,
    element: (
      <RouteBoundary>
        <RootRoute />
      </RouteBoundary>
    ),
    children: [
      { index: true, element: <Navigate to={paths.home} replace /> },
      {
        element: (
          <RouteBoundary>
            <AppLayout />
          </RouteBoundary>
        ),
        children: tabs,
      },
      ...standalone,
      // Tiny: part of the entry.
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]

/** The routes for the current location, with the handle of the deepest route that has one. */
export function AppRoutes() {
  const location = useLocation()
  const handle = matchRoutes(routes, location)
    ?.map((match) => match.route.handle)
    .findLast(isRouteHandle)
  const element = useRoutes(routes, location)
  return <RouteHandleContext.Provider value={handle}>{element}</RouteHandleContext.Provider>
}
