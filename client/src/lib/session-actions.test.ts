// @vitest-environment happy-dom
import type { AddressInfo } from 'node:net'
import { createTestApp, DEMO, type TestApp } from '@server/test-support/test-app'
import { STORAGE_KEY } from '@shared/storage-keys'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { handTimers as httpHandTimers } from '../test-support/hand-timers'
import { happyDom } from '../test-support/happy-dom'
import { until } from '../test-support/until'
import { connectivity } from './connectivity'
import { setHttpTimers } from './http'
import { setNavigator } from './navigation'
import type { RetryTimers } from './retry-until'
import { logIn, logOut, refreshBalance, startUp, stopConfirming } from './session-actions'
import { SessionStore, session } from './session-store'
import { clearToast } from './toast'

let server: TestApp
const navigations: string[] = []

beforeAll(async () => {
  server = await createTestApp()
  await server.app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = server.app.server.address() as AddressInfo
  happyDom().setURL(`http://127.0.0.1:${port}/home`)
  setNavigator((to) => navigations.push(to))
  // The app's 10 s request time-out and its loading-toast delay never go off: a call to the real
  // server takes as long as it takes on a busy machine.
  setHttpTimers(httpHandTimers().timers)
  // The server's first login (password hashing, the route's first run) is the slowest call: made
  // here, under the hook's longer limit, not in the first test.
  await server.login()
})

afterAll(async () => {
  setHttpTimers(null)
  setNavigator(null)
  await server.close()
})

beforeEach(() => {
  clearToast()
  localStorage.clear()
  session.syncFromStorage()
  navigations.length = 0
})

const demo = { phone: DEMO.phone, password: DEMO.password }

describe('login and start-up', () => {
  it('stores token, loginData with player_id, userInfo and isLogin on login, then loads the balance', async () => {
    await logIn(demo)
    const loginData: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY.loginData) ?? 'null')
    expect(loginData).toMatchObject({ player_id: session.get().playerId })
    expect(localStorage.getItem(STORAGE_KEY.token)).toMatch(/.+/)
    expect(localStorage.getItem(STORAGE_KEY.isLogin)).toBe('1')
    expect(JSON.parse(localStorage.getItem(STORAGE_KEY.userInfo) ?? 'null')).toMatchObject({
      player_id: session.get().playerId,
    })
    await refreshBalance()
    expect(session.get().balance).toBe('1000.00')
    // The TRX balance beside it (首页 and 我的 show it).
    expect(session.get().trxBalance).toBe('500.00')
  })

  it('on start-up refetches and stores the user info, then refreshes the balance', async () => {
    await logIn(demo)
    const stale = { ...session.get().userInfo, nickname: 'stale' }
    localStorage.setItem(STORAGE_KEY.userInfo, JSON.stringify(stale))
    session.syncFromStorage()
    expect(session.get().isLogin).toBe(true)
    expect(session.get().userInfo?.nickname).toBe('stale')
    await startUp()
    expect(session.get().userInfo?.nickname).not.toBe('stale')
    expect(JSON.parse(localStorage.getItem(STORAGE_KEY.userInfo) ?? '{}')).toMatchObject({
      nickname: session.get().userInfo?.nickname,
    })
    expect(session.get().balance).toBe('1000.00')
  })

  it('treats stored userInfo as logged in, and clears it when the session behind it is gone', async () => {
    await logIn(demo)
    const token = localStorage.getItem(STORAGE_KEY.token) ?? ''
    await server.app.inject({ method: 'POST', url: `/__emu/sessions/${token}/expire` })
    session.syncFromStorage()
    expect(session.get().isLogin).toBe(true)
    await startUp()
    expect(session.get().isLogin).toBe(false)
    expect(localStorage.getItem(STORAGE_KEY.userInfo)).toBeNull()
    expect(localStorage.getItem(STORAGE_KEY.token)).toBeNull()
    expect(navigations).toEqual(['/login?isreg=0'])
  })

  it('logs out a stored userInfo that has no player id to refetch it with', async () => {
    localStorage.setItem(
      STORAGE_KEY.userInfo,
      JSON.stringify({
        player_id: 1,
        nickname: 'x',
        phone: '1',
        invite_code: 'A',
        has_pay_password: false,
        vip_level: 0,
        created_at: 1,
      }),
    )
    session.syncFromStorage()
    expect(session.get().isLogin).toBe(true)
    await startUp()
    expect(session.get().isLogin).toBe(false)
    expect(localStorage.getItem(STORAGE_KEY.userInfo)).toBeNull()
  })
})

describe('start-up without the network', () => {
  afterEach(() => {
    vi.restoreAllMocks()
    stopConfirming()
    connectivity.markOnline()
  })

  /** Timers the test fires by hand: no real waiting. */
  const handTimers = () => {
    const pending: (() => void)[] = []
    const timers: RetryTimers = { setTimeout: (fn) => pending.push(fn), clearTimeout: () => undefined }
    return { timers, pending }
  }

  it('keeps the stored session and user info when users/info cannot be reached, and confirms it once the server answers', async () => {
    await logIn(demo)
    const stale = { ...session.get().userInfo, nickname: 'stale' }
    localStorage.setItem(STORAGE_KEY.userInfo, JSON.stringify(stale))
    session.syncFromStorage()
    // As after a reload: the balance is not known yet.
    session.setBalance(null)
    let fetches = 0
    let onFetch = () => {}
    const offline = vi.spyOn(globalThis, 'fetch').mockImplementation(() => {
      fetches++
      onFetch()
      return Promise.reject(new TypeError('Failed to fetch'))
    })
    const fetched = (listener: () => void) => {
      onFetch = listener
      return () => {
        onFetch = () => {}
      }
    }
    const { timers, pending } = handTimers()
    await startUp({ retry: { timers } })
    // Still logged in, with what was stored: not 未登录, nothing deleted.
    expect(session.get()).toMatchObject({ isLogin: true, balance: null, userInfo: { nickname: 'stale' } })
    expect(localStorage.getItem(STORAGE_KEY.userInfo)).toContain('stale')
    expect(localStorage.getItem(STORAGE_KEY.token)).toMatch(/.+/)
    expect(navigations).toEqual([])
    expect(connectivity.online).toBe(false)
    // A retry while still offline changes nothing.
    const before = fetches
    pending.shift()?.()
    await until(fetched, () => fetches > before)
    expect(session.get().isLogin).toBe(true)
    // The network is back: the next answer from the server brings the app round by itself.
    offline.mockRestore()
    connectivity.markOnline()
    await until(session.subscribe, () => session.get().balance === '1000.00')
    expect(session.get().userInfo?.nickname).not.toBe('stale')
    expect(session.get().isLogin).toBe(true)
  })

  it('keeps the stored session, asks nothing more and loads the balance when the server does not offer users/info', async () => {
    await logIn(demo)
    const stale = { ...session.get().userInfo, nickname: 'stale' }
    localStorage.setItem(STORAGE_KEY.userInfo, JSON.stringify(stale))
    session.syncFromStorage()
    session.setBalance(null)
    const realFetch = globalThis.fetch
    const fetched = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation((input, init) =>
        String(input).includes('/api/users/info')
          ? Promise.resolve(new Response('<h1>Not Found</h1>', { status: 404 }))
          : realFetch(input, init),
      )
    const { timers, pending } = handTimers()
    await startUp({ retry: { timers } })
    expect(pending).toEqual([])
    expect(session.get()).toMatchObject({ isLogin: true, userInfo: { nickname: 'stale' } })
    await until(session.subscribe, () => session.get().balance === '1000.00')
    expect(fetched.mock.calls.filter(([input]) => String(input).includes('/api/users/info'))).toHaveLength(1)
    expect(document.body.textContent).not.toContain('请求失败')
    expect(navigations).toEqual([])
  })

  it('asks for a balance that failed to arrive as soon as the server answers again', async () => {
    await logIn(demo)
    await startUp()
    session.setBalance(null)
    const realFetch = globalThis.fetch
    const offline = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation((input, init) =>
        String(input).includes('getBalance')
          ? Promise.reject(new TypeError('Failed to fetch'))
          : realFetch(input, init),
      )
    await refreshBalance().catch(() => undefined)
    expect(session.get().balance).toBeNull()
    expect(connectivity.online).toBe(false)
    offline.mockRestore()
    connectivity.markOnline()
    await until(session.subscribe, () => session.get().balance === '1000.00')
  })

  it('still logs out when the server says the session is gone', async () => {
    await logIn(demo)
    const token = localStorage.getItem(STORAGE_KEY.token) ?? ''
    await server.app.inject({ method: 'POST', url: `/__emu/sessions/${token}/expire` })
    const { timers, pending } = handTimers()
    await startUp({ retry: { timers } })
    expect(session.get().isLogin).toBe(false)
    expect(pending).toEqual([])
  })

  it('shows no balance (not 0.00) for a stored session until the first balance arrives', () => {
    localStorage.setItem(
      STORAGE_KEY.userInfo,
      JSON.stringify({
        player_id: 1,
        nickname: 'x',
        phone: '1',
        invite_code: 'A',
        has_pay_password: false,
        vip_level: 0,
        created_at: 1,
      }),
    )
    expect(new SessionStore().get().balance).toBeNull()
    localStorage.removeItem(STORAGE_KEY.userInfo)
    expect(new SessionStore().get().balance).toBe('0.00')
  })
})

describe('balance refresh and logout', () => {
  it('sends a logged-out user to /login instead of refreshing', async () => {
    await refreshBalance()
    expect(navigations).toEqual(['/login'])
  })

  it('clears the state, shows balance 0, calls logout and removes token, userInfo and loginData', async () => {
    localStorage.setItem(STORAGE_KEY.hideAmount, '1')
    localStorage.setItem(STORAGE_KEY.openVoice, '0')
    await logIn(demo)
    await refreshBalance()
    const token = localStorage.getItem(STORAGE_KEY.token) ?? ''
    await logOut()
    expect(session.get()).toMatchObject({
      isLogin: false,
      playerId: null,
      userInfo: null,
      balance: '0',
      trxBalance: null,
    })
    for (const key of [STORAGE_KEY.token, STORAGE_KEY.userInfo, STORAGE_KEY.loginData, STORAGE_KEY.isLogin]) {
      expect(localStorage.getItem(key)).toBeNull()
    }
    expect(localStorage.getItem(STORAGE_KEY.hideAmount)).toBe('1')
    expect(localStorage.getItem(STORAGE_KEY.openVoice)).toBe('0')
    expect(navigations).toEqual(['/login'])
    // The server ended the session too.
    const res = await server.app.inject({
      method: 'GET',
      url: '/api/users/info?player_id=1',
      headers: { token },
    })
    expect(res.json()).toMatchObject({ code: 10001 })
  })
})

describe('preferences', () => {
  it('sound is on unless stored as 0; hide-amount is off by default; theme is light by default', () => {
    expect(session.get()).toMatchObject({ soundOn: true, hideAmount: false, theme: 'light' })
    localStorage.setItem(STORAGE_KEY.openVoice, 'anything')
    session.syncFromStorage()
    expect(session.get().soundOn).toBe(true)
    localStorage.setItem(STORAGE_KEY.openVoice, '0')
    session.syncFromStorage()
    expect(session.get().soundOn).toBe(false)
  })

  it('saves each theme change and marks <html> dark', () => {
    session.toggleTheme()
    expect(localStorage.getItem(STORAGE_KEY.theme)).toBe('dark')
    expect(document.documentElement.getAttribute('data-theme')).toBe('dark')
    session.toggleTheme()
    expect(localStorage.getItem(STORAGE_KEY.theme)).toBe('light')
    expect(document.documentElement.getAttribute('data-theme')).toBe('light')
  })

  it('saves sound and hide-amount as 1 or 0', () => {
    session.setSoundOn(false)
    session.setHideAmount(true)
    expect(localStorage.getItem(STORAGE_KEY.openVoice)).toBe('0')
    expect(localStorage.getItem(STORAGE_KEY.hideAmount)).toBe('1')
    session.setSoundOn(true)
    session.setHideAmount(false)
    expect(localStorage.getItem(STORAGE_KEY.openVoice)).toBe('1')
    expect(localStorage.getItem(STORAGE_KEY.hideAmount)).toBe('0')
  })
})
