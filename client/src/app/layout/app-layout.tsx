import { Outlet } from 'react-router-dom'
import { MainTabBar } from './main-tab-bar'
import './app-layout.css'

/** The layout of the four tab pages: the page, then the bottom tab bar. */
export function AppLayout() {
  return (
    <div className="app-layout">
      <div className="app-layout__page">
        <Outlet />
      </div>
      <MainTabBar />
    </div>
  )
}
