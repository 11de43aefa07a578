import { CHAT_FALLBACK_MS } from '@shared/constants'

export interface ChatLinks {
  /** The messenger app's own scheme, e.g. `tg://resolve?domain=…`. */
  appUrl: string
  /** The same chat on the web, e.g. `https://t.me/…`. */
  webUrl: string
}

/** Everything `openChat` touches in the browser, so that it can run against a fake in tests. */
export interface ChatEnv {
  userAgent: string
  maxTouchPoints: number
  /** Navigates the current tab (location.assign). */
  assign(url: string): void
  /** window.open */
  open(url: string, target: string, features: string): void
  /** Opens `url` in a new tab that cannot reach this one; false when the browser blocked it. */
  openTab(url: string): boolean
  setTimeout(fn: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
  /** Whether the page is still shown (document.visibilityState === 'visible'). */
  isVisible(): boolean
  /** Calls `listener` once the page is hidden or being left; returns the unsubscribe. */
  onLeave(listener: () => void): () => void
}

export type ChatDevice = 'ios' | 'android' | 'other'

/**
 * iPhone, iPod and iPad say so in the user agent, except iPadOS 13+, which reports as a Mac;
 * a "Mac" with a multi-touch screen is an iPad.
 */
export function detectDevice(userAgent: string, maxTouchPoints: number): ChatDevice {
  if (/iPhone|iPad|iPod/i.test(userAgent)) return 'ios'
  if (/Macintosh/i.test(userAgent) && maxTouchPoints > 1) return 'ios'
  if (/Android/i.test(userAgent)) return 'android'
  return 'other'
}

export function browserEnv(): ChatEnv {
  return {
    userAgent: navigator.userAgent,
    maxTouchPoints: navigator.maxTouchPoints ?? 0,
    assign: (url) => window.location.assign(url),
    open: (url, target, features) => {
      window.open(url, target, features)
    },
    openTab: (url) => {
      // Not 'noopener' in the features: window.open then answers null whether or not it opened.
      const tab = window.open('about:blank', '_blank')
      if (!tab) return false
      tab.opener = null
      tab.location.href = url
      return true
    },
    setTimeout: (fn, ms) => window.setTimeout(fn, ms),
    clearTimeout: (handle) => window.clearTimeout(handle as number),
    isVisible: () => document.visibilityState === 'visible',
    onLeave: (listener) => {
      const onVisibility = () => {
        if (document.visibilityState === 'hidden') listener()
      }
      document.addEventListener('visibilitychange', onVisibility)
      window.addEventListener('pagehide', listener)
      return () => {
        document.removeEventListener('visibilitychange', onVisibility)
        window.removeEventListener('pagehide', listener)
      }
    },
  }
}

/**
 * Opens a customer-service chat. On iPhone, iPad and Android it tries the messenger app; if the page
 * is still visible CHAT_FALLBACK_MS (2000 ms) later, the app did not open, and the web link opens in a
 * new tab: the app's own tab stays where it was. The page being hidden or left before then means the
 * app took over, and the fallback is dropped. A browser may block a new tab opened from a timer
 * (Chromium allows it for 5 s after the tap); then `onBlocked` gets the web link, for the page to
 * offer it as a link the player taps. Other devices open the web link in a new tab at once.
 *
 * Returns a function that drops a pending fallback (for a component that unmounts).
 */
export function openChat(
  { appUrl, webUrl }: ChatLinks,
  env: ChatEnv = browserEnv(),
  onBlocked: (webUrl: string) => void = () => {},
): () => void {
  if (detectDevice(env.userAgent, env.maxTouchPoints) === 'other') {
    env.open(webUrl, '_blank', 'noopener,noreferrer')
    return () => {}
  }

  let done = false
  const stop = () => {
    if (done) return
    done = true
    env.clearTimeout(timer)
    unsubscribe()
  }
  const unsubscribe = env.onLeave(stop)
  const timer = env.setTimeout(() => {
    const stillHere = !done && env.isVisible()
    stop()
    if (stillHere && !env.openTab(webUrl)) onBlocked(webUrl)
  }, CHAT_FALLBACK_MS)
  env.assign(appUrl)
  return stop
}
