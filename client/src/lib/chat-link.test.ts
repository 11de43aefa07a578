// @vitest-environment happy-dom

import { CHAT_FALLBACK_MS } from '@shared/constants'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { browserEnv, type ChatEnv, detectDevice, openChat } from './chat-link'

const UA = {
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  ipadOld:
    'Mozilla/5.0 (iPad; CPU OS 12_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/12.1 Mobile/15E148 Safari/604.1',
  ipadDesktopMode:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  android:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  windows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
}

const LINKS = { appUrl: 'tg://resolve?domain=help', webUrl: 'https://t.me/help' }

/** A browser stand-in that records navigations and lets the test hide the page. */
function fakeEnv(userAgent: string, maxTouchPoints = 0) {
  let visible = true
  const leaveListeners = new Set<() => void>()
  const env: ChatEnv & { assigned: string[]; opened: unknown[][]; tabs: string[]; tabsAllowed: boolean } = {
    userAgent,
    maxTouchPoints,
    assigned: [],
    opened: [],
    tabs: [],
    tabsAllowed: true,
    openTab(url) {
      if (!this.tabsAllowed) return false
      this.tabs.push(url)
      return true
    },
    assign(url) {
      this.assigned.push(url)
    },
    open(...args) {
      this.opened.push(args)
    },
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    isVisible: () => visible,
    onLeave(listener) {
      leaveListeners.add(listener)
      return () => leaveListeners.delete(listener)
    },
  }
  return {
    env,
    hide() {
      visible = false
      for (const l of [...leaveListeners]) l()
    },
    /** Hidden without an event (some browsers only report it when asked). */
    hideSilently() {
      visible = false
    },
    listenerCount: () => leaveListeners.size,
  }
}

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('detectDevice', () => {
  it('knows iPhone, iPad (also iPadOS posing as a Mac) and Android', () => {
    expect(detectDevice(UA.iphone, 5)).toBe('ios')
    expect(detectDevice(UA.ipadOld, 5)).toBe('ios')
    expect(detectDevice(UA.ipadDesktopMode, 5)).toBe('ios')
    expect(detectDevice(UA.android, 5)).toBe('android')
  })

  it('treats a real Mac and a PC as other devices', () => {
    expect(detectDevice(UA.ipadDesktopMode, 0)).toBe('other')
    expect(detectDevice(UA.windows, 0)).toBe('other')
    expect(detectDevice(UA.windows, 10)).toBe('other')
  })
})

describe('openChat', () => {
  for (const [name, ua, touch] of [
    ['iPhone', UA.iphone, 5],
    ['iPadOS as Mac', UA.ipadDesktopMode, 5],
    ['Android', UA.android, 5],
  ] as const) {
    it(`on ${name} opens the app, then the web link in a new tab after ${CHAT_FALLBACK_MS} ms while still visible`, () => {
      const { env, listenerCount } = fakeEnv(ua, touch)
      openChat(LINKS, env)
      expect(env.assigned).toEqual([LINKS.appUrl])
      vi.advanceTimersByTime(CHAT_FALLBACK_MS - 1)
      expect(env.tabs).toEqual([])
      vi.advanceTimersByTime(1)
      expect(env.tabs).toEqual([LINKS.webUrl])
      // The app's own tab is never sent to the chat's web page.
      expect(env.assigned).toEqual([LINKS.appUrl])
      expect(env.opened).toEqual([])
      expect(listenerCount()).toBe(0)
    })
  }

  it('hands the web link to onBlocked when the browser blocks the new tab', () => {
    const { env } = fakeEnv(UA.android, 5)
    env.tabsAllowed = false
    const blocked = vi.fn()
    openChat(LINKS, env, blocked)
    vi.advanceTimersByTime(CHAT_FALLBACK_MS)
    expect(blocked).toHaveBeenCalledWith(LINKS.webUrl)
    expect(env.assigned).toEqual([LINKS.appUrl])
  })

  it('drops the fallback when the page is hidden (the app opened)', () => {
    const { env, hide, listenerCount } = fakeEnv(UA.iphone, 5)
    openChat(LINKS, env)
    vi.advanceTimersByTime(500)
    hide()
    expect(listenerCount()).toBe(0)
    vi.advanceTimersByTime(CHAT_FALLBACK_MS * 2)
    expect(env.assigned).toEqual([LINKS.appUrl])
    expect(env.tabs).toEqual([])
  })

  it('does not fall back when the page is hidden at the deadline without an event', () => {
    const { env, hideSilently } = fakeEnv(UA.android, 5)
    openChat(LINKS, env)
    hideSilently()
    vi.advanceTimersByTime(CHAT_FALLBACK_MS)
    expect(env.assigned).toEqual([LINKS.appUrl])
  })

  it('returns a function that drops the pending fallback', () => {
    const { env, listenerCount } = fakeEnv(UA.android, 5)
    const cancel = openChat(LINKS, env)
    cancel()
    vi.advanceTimersByTime(CHAT_FALLBACK_MS)
    expect(env.assigned).toEqual([LINKS.appUrl])
    expect(listenerCount()).toBe(0)
  })

  it('on other devices opens the web link in a new tab without an opener', () => {
    const { env } = fakeEnv(UA.windows, 0)
    openChat(LINKS, env)
    expect(env.opened).toEqual([[LINKS.webUrl, '_blank', 'noopener,noreferrer']])
    expect(env.assigned).toEqual([])
    vi.advanceTimersByTime(CHAT_FALLBACK_MS)
    expect(env.assigned).toEqual([])
  })
})

describe('browserEnv', () => {
  afterEach(() => {
    Reflect.deleteProperty(document, 'visibilityState')
  })

  function setVisibility(state: 'visible' | 'hidden') {
    Object.defineProperty(document, 'visibilityState', { value: state, configurable: true })
    document.dispatchEvent(new Event('visibilitychange'))
  }

  it('reports visibility and calls the leave listener when the page is hidden, until unsubscribed', () => {
    const env = browserEnv()
    const listener = vi.fn()
    const off = env.onLeave(listener)
    setVisibility('visible')
    expect(env.isVisible()).toBe(true)
    expect(listener).not.toHaveBeenCalled()
    setVisibility('hidden')
    expect(env.isVisible()).toBe(false)
    expect(listener).toHaveBeenCalledTimes(1)
    off()
    setVisibility('hidden')
    expect(listener).toHaveBeenCalledTimes(1)
  })

  it('calls the leave listener on pagehide', () => {
    const env = browserEnv()
    const listener = vi.fn()
    const off = env.onLeave(listener)
    window.dispatchEvent(new Event('pagehide'))
    expect(listener).toHaveBeenCalledTimes(1)
    off()
  })

  it('opens the web link in a new tab through window.open', () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null)
    const env = { ...browserEnv(), userAgent: UA.windows, maxTouchPoints: 0 }
    openChat(LINKS, env)
    expect(open).toHaveBeenCalledWith(LINKS.webUrl, '_blank', 'noopener,noreferrer')
    open.mockRestore()
  })
})
