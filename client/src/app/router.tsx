import type { ComponentType } from 'react'
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom'
import { PageLoading } from '../components/page-loading/page-loading'
import { paths } from '../config/paths'
import { isChunkLoadError } from '../lib/preload-recovery'
import { RootRoute } from './root-route'
import { ChunkErrorPage, RouteError } from './route-error'
import type { RouteHandle } from './route-handle'
import { NotFoundPage } from './routes/not-found-page'

/** Every route of spec §2. Each page is its own lazily loaded module. */

type Load = () => Promise<ComponentType>

/**
 * A page's code failing to load becomes a page of its own (reload once, then say so), rendered
 * where the page would have been.
 */
const lazyPage = (load: Load) => async () => {
  try {
    return { Component: await load() }
  } catch (error) {
    if (!isChunkLoadError(error)) throw error
    console.warn('page code failed to load', error)
    return { Component: ChunkErrorPage }
  }
}

const section = lazyPage(() => import('./routes/section-page').then((m) => m.SectionPage))
const tabSection = lazyPage(() => import('./routes/section-page').then((m) => m.TabSectionPage))

function page(path: string, handle: RouteHandle, load: Load): RouteObject {
  return { path, handle, lazy: lazyPage(load), errorElement: <RouteError /> }
}

/** A page of a section built separately: title, navigation and what it is for. */
function planned(path: string, title: string, description: string, back?: string): RouteObject {
  const handle: RouteHandle = back ? { title, description, back } : { title, description }
  return { path, handle, lazy: section, errorElement: <RouteError /> }
}

const tabs: RouteObject[] = [
  page(paths.home, { title: '首页' }, () => import('../features/home/home-page').then((m) => m.HomePage)),
  {
    path: paths.activity,
    handle: {
      title: '活动',
      description: '平台当前的优惠活动与奖励。每个活动都有详情页，说明参与条件、奖励内容与活动时间。',
    } satisfies RouteHandle,
    lazy: tabSection,
    errorElement: <RouteError />,
  },
  {
    path: paths.service,
    handle: {
      title: '客服',
      description: '联系在线客服，咨询充值、提现、游戏规则与账户安全等问题。客服会在聊天软件中回复您。',
    } satisfies RouteHandle,
    lazy: tabSection,
    errorElement: <RouteError />,
  },
  page(paths.mine, { title: '我的' }, () => import('../features/mine/mine-page').then((m) => m.MinePage)),
]

const standalone: RouteObject[] = [
  page(paths.login, { title: '登录' }, () =>
    import('../features/account/login-page').then((m) => m.LoginPage),
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
  planned(
    paths.topUp,
    '充值',
    '使用 USDT 为钱包充值：选择网络，获取收款地址或二维码，转账到账后余额自动增加。',
  ),
  planned(paths.withdraw, '提现', '把钱包余额提现到您绑定的 USDT 地址，提交前需要输入支付密码。', paths.mine),
  planned(paths.newbie, '新手指引', '第一次使用？这里介绍注册、充值、参与游戏与提现的基本步骤。'),
  planned(paths.betHistory, '投注记录', '查看您的每一笔投注：游戏、金额、开奖结果与派奖情况。', paths.mine),
  planned(
    paths.walletAddresses,
    '钱包地址',
    '管理用于提现的 USDT 地址：添加新地址、设为默认或删除。',
    paths.mine,
  ),
  planned(paths.betAddresses, '投注地址', '管理用于转账投注的钱包地址：绑定、修改或删除。', paths.mine),
  planned(paths.exchange, '兑换', '在 USDT 与 TRX 之间兑换，兑换前会显示当前汇率。', paths.mine),
  planned(paths.topUpHistory, '充值记录', '查看充值与提现的历史记录及每一笔的处理状态。', paths.mine),
  page(paths.rebate, { title: '返水', back: paths.mine }, () =>
    import('../features/agent/backwater-page').then((m) => m.BackwaterPage),
  ),
  planned(
    paths.finance,
    '资金明细',
    '钱包的每一笔收支：充值、提现、投注、派奖与返水，按时间排列。',
    paths.mine,
  ),
  planned(paths.vpn, 'VPN', '访问加速与网络连接的说明。'),
  planned(paths.prizePool, '奖池', '查看当前奖池金额与奖池的派发规则。'),
  page(paths.gameBlock, { title: '区块游戏' }, () =>
    import('../features/games/game-page').then((m) => m.GamePage),
  ),
  planned(paths.gameTrend, '走势', '查看各游戏的历史开奖走势与路单。'),
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
  planned(paths.study, '教程', '各游戏的玩法说明与规则教程。'),
  page(paths.inviteFriends, { title: '邀请好友', back: paths.mine }, () =>
    import('../features/agent/invite-friends-page').then((m) => m.InviteFriendsPage),
  ),
  page(paths.performanceRecord, { title: '业绩记录', back: paths.mine }, () =>
    import('../features/agent/performance-record-page').then((m) => m.PerformanceRecordPage),
  ),
  planned(paths.third, '第三方游戏', '进入合作平台提供的游戏。'),
  planned(paths.testBet, '试玩投注', '不花费余额，体验投注与开奖的流程。'),
  planned(paths.activityImages, '活动海报', '活动的宣传图片，可保存后分享。', paths.activity),
  planned(paths.activityDetail, '活动详情', '活动的参与条件、奖励内容与活动时间。', paths.activity),
]

export const routes: RouteObject[] = [
  {
    path: paths.root,
    element: <RootRoute />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <PageLoading />,
    children: [
      { index: true, element: <Navigate to={paths.home} replace /> },
      {
        lazy: lazyPage(() => import('./layout/app-layout').then((m) => m.AppLayout)),
        errorElement: <RouteError />,
        children: tabs,
      },
      ...standalone,
      // Tiny, and already loaded for the error element.
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]

export const createAppRouter = () => createBrowserRouter(routes)
