import 'antd-mobile/es/global'
import './styles/global.css'
import './app/first-screen-styles'
import './lib/antd-react19'
import { StrictMode, startTransition } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app/app'
import { takeAnnouncements } from './features/home/announcements-request'
import { expectRouter } from './lib/navigation'
import { installRootFontSize } from './lib/root-font-size'
import { startUp } from './lib/session-actions'
import { session } from './lib/session-store'
import { applyTheme } from './lib/theme'
import { preloadToast } from './lib/toast'
import { installZoomGuard } from './lib/zoom-guard'

installRootFontSize()
installZoomGuard()
applyTheme(session.get().theme)
window.addEventListener('storage', () => session.syncFromStorage())

const container = document.getElementById('root')
if (!container) throw new Error('#root is missing from index.html')
// As a transition, the first render yields to the browser every few milliseconds instead of holding
// the main thread for the whole tree (the boot splash stays up until it commits).
const root = createRoot(container)
startTransition(() =>
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
)

// The first screen's requests leave before React renders it (docs/client.md#the-first-screen); what
// their answers navigate to waits for the router.
expectRouter()
void startUp()
takeAnnouncements(window.location.pathname)
// The Toast code (and its animation library) is fetched once the first screen is up, not before, and
// so is the service worker's registration with its offline and update banner (lib/pwa.ts): `load`
// comes before the first screen's data, whose requests should not share the network with these.
window.addEventListener(
  'load',
  () =>
    setTimeout(() => {
      preloadToast()
      // The push channel (docs/realtime.md), then the watch over the player's unsettled bets: balance
      // and win toast whatever page placed them.
      import('./lib/live').then(
        (m) => m.installLiveStream(),
        (err: unknown) => console.warn('push channel could not load', err),
      )
      import('./features/games/settlement-watch').then(
        (m) => m.installSettlementWatch(),
        (err: unknown) => console.warn('settlement watch could not load', err),
      )
      import('./lib/pwa').then(
        (m) => m.startPwa(),
        (err: unknown) => console.warn('service worker code could not load', err),
      )
    }, 1000),
  { once: true },
)
