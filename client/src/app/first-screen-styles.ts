/**
 * The stylesheets of the screen most visits open first (/home: the tab layout and the home page),
 * imported by the entry so that they ship in its one stylesheet instead of one render-blocking
 * request per lazily loaded module. The modules that use them import them as well; each stylesheet
 * is bundled once. The order is the cascade the lazy modules had: library styles before the app's.
 */
import 'antd-mobile/es/components/tab-bar/tab-bar.css'
import 'antd-mobile/es/components/badge/badge.css'
import '../components/tab-icons/tab-icons.css'
import './layout/main-tab-bar.css'
import './layout/app-layout.css'
import 'antd-mobile/es/components/safe-area/safe-area.css'
import '../components/error-boundary/error-boundary.css'
import '../features/home/notice-line.css'
import '../features/home/home-page.css'
import '../components/balance-text/balance-text.css'
import '../components/refresh-button/refresh-button.css'
