import {
  ActivityIcon,
  HomeIcon,
  MineIcon,
  ServiceIcon,
  TopUpIcon,
} from '@client/components/tab-icons/tab-icons'
import TabBar from 'antd-mobile/es/components/tab-bar'
import { useLocation, useNavigate } from 'react-router-dom'
import { TAB_PATHS, TOP_UP_TAB, tabIndexForPath } from './tab-index'
import './main-tab-bar.css'

const TABS = [
  { title: '首页', Icon: HomeIcon },
  { title: '活动', Icon: ActivityIcon },
  { title: '充值', Icon: TopUpIcon },
  { title: '客服', Icon: ServiceIcon },
  { title: '我的', Icon: MineIcon },
] as const

/** The bottom tab bar. The active index follows the URL, so back, forward and deep links agree. */
export function MainTabBar() {
  const { pathname } = useLocation()
  const navigate = useNavigate()
  const activeIndex = tabIndexForPath(pathname)

  return (
    <nav className="main-tab-bar" aria-label="主导航">
      <TabBar
        safeArea
        activeKey={String(activeIndex)}
        onChange={(key) => {
          const path = TAB_PATHS[Number(key)]
          if (path && path !== pathname) navigate(path)
        }}
      >
        {TABS.map(({ title, Icon }, index) => (
          <TabBar.Item
            key={String(index)}
            className={index === TOP_UP_TAB ? 'main-tab-bar__topup' : undefined}
            icon={(active: boolean) => <Icon active={active} />}
            title={index === TOP_UP_TAB ? undefined : title}
            aria-label={title}
          />
        ))}
      </TabBar>
    </nav>
  )
}
