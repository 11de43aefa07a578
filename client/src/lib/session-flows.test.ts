// @vitest-environment happy-dom
import type { UserInfo } from '@shared/contract/account'
import { STORAGE_KEY } from '@shared/storage-keys'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { deferred } from '../test-support/deferred'
import { handTimers } from '../test-support/hand-timers'
import { connectivity } from './connectivity'
import { ApiError } from './http'
import { setNavigator } from './navigation'
import { logIn, logOut, refreshBalance, START_UP_RETRY_MS, startUp, stopConfirming } from './session-actions'
import { session } from './session-store'

/**
 * The session flows with the HTTP client replaced: each call is answered (or held, or failed) by
 * the test, so what start-up, the balance refresh, login and logout keep, ask and show is seen
 * without a server. session-actions.test.ts runs the same flows against the emulator.
 */

type Answer = (input: unknown, options: unknown) => Promise<unknown>

/** How the replaced HTTP client answers each path; a path not listed here fails the test. */
const answers = new Map<string, Answer>()
/** Every call made, in order: its path, input and options. */
const calls: { path: string; input: unknown; options: unknown }[] = []

vi.mock('./http', async (original) => {
  const real = await original<typeof import('./http')>()
  const answer = (path: string, input: unknown, options: unknown) => {
    calls.push({ path, input, options })
    const reply = answers.get(path)
    if (!reply) throw new Error(`no answer for ${path}`)
    return reply(input, options)
  }
  return {
    ...real,
    callApi: (endpoint: { path: string }, input: unknown = {}, options: unknown = {}) =>
      answer(endpoint.path, input, options),
    callApiEarly: (route: { path: string }, _endpoint: unknown, input: unknown = {}, options: unknown = {}) =>
      answer(route.path, input, options),
  }
})

const INFO_PATH = '/api/users/info'
const BALANCE_PATH = '/api/api/getBalance'
const LOGIN_PATH = '/api/login'
const LOGOUT_PATH = '/api/users/logout'

const info = (playerId: number, nickname: string): UserInfo => ({
  player_id: playerId,
  nickname,
  phone: '138****0007',
  invite_code: 'ABC123',
  has_pay_password: false,
  vip_level: 0,
  created_at: 1_700_000_000,
})

/** What a login stored for player 7, as after a reload: logged in, balance not known yet. */
function storedLogin(playerId = 7, token: string | null = 'tok-7'): void {
  localStorage.setItem(STORAGE_KEY.userInfo, JSON.stringify(info(playerId, 'stored')))
  localStorage.setItem(
    STORAGE_KEY.loginData,
    JSON.stringify({ player_id: playerId, expires_at: 1_800_000_000 }),
  )
  if (token !== null) localStorage.setItem(STORAGE_KEY.token, token)
  localStorage.setItem(STORAGE_KEY.isLogin, '1')
  session.syncFromStorage()
}

const balance = (amount: string) => async () => ({ balance: amount, trx_balance: '5.00' })
const pathsCalled = () => calls.map((c) => c.path)
const unreachable = async () => {
  throw new ApiError('network', '网络连接失败')
}
/** Lets the promises already settled run their callbacks. */
const settle = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve()
}

let navigations: { to: string; options: unknown }[]

beforeEach(() => {
  localStorage.clear()
  session.signOut()
  session.syncFromStorage()
  answers.clear()
  calls.length = 0
  navigations = []
  setNavigator((to, options) => navigations.push({ to, options }))
  connectivity.markOnline()
})

afterEach(() => {
  stopConfirming()
  setNavigator(null)
  connectivity.markOnline()
})

describe('start-up', () => {
  it('watches for a missing balance once, however often it runs (the first start-up here: the watch is set up once per page)', async () => {
    storedLogin()
    answers.set(INFO_PATH, async () => info(7, 'fresh'))
    answers.set(BALANCE_PATH, unreachable)
    await startUp()
    await startUp()
    calls.length = 0
    connectivity.markOffline()
    connectivity.markOnline()
    await settle()
    expect(pathsCalled()).toEqual([BALANCE_PATH])
  })

  it('confirms the stored session with its player id, stores the answer, then loads the balance', async () => {
    storedLogin()
    answers.set(INFO_PATH, async () => info(7, 'fresh'))
    answers.set(BALANCE_PATH, balance('12.50'))
    await startUp()
    expect(calls).toEqual([
      { path: INFO_PATH, input: { query: { player_id: 7 } }, options: { quiet: false } },
      { path: BALANCE_PATH, input: { query: { player_id: 7 } }, options: {} },
    ])
    expect(session.get()).toMatchObject({
      isLogin: true,
      playerId: 7,
      userInfo: { nickname: 'fresh' },
      balance: '12.50',
      trxBalance: '5.00',
    })
    expect(JSON.parse(localStorage.getItem(STORAGE_KEY.userInfo) ?? 'null')).toMatchObject({
      nickname: 'fresh',
    })
  })

  it('asks quietly while offline: the banner already says so', async () => {
    storedLogin()
    connectivity.markOffline()
    answers.set(INFO_PATH, unreachable)
    await startUp({ retry: { timers: handTimers().timers } })
    expect(calls).toEqual([{ path: INFO_PATH, input: { query: { player_id: 7 } }, options: { quiet: true } }])
  })

  /** Start-up with player 7's user info held until `change` has run, then answered. */
  async function startUpAnsweredAfter(change: () => void) {
    storedLogin()
    const held = deferred<unknown>()
    answers.set(INFO_PATH, () => held.promise)
    answers.set(BALANCE_PATH, balance('12.50'))
    const timers = handTimers()
    const starting = startUp({ retry: { timers: timers.timers } })
    await settle()
    change()
    held.resolve(info(7, 'fresh'))
    await starting
    return timers
  }

  it('drops an answer that comes after a logout: the player stays logged out', async () => {
    const timers = await startUpAnsweredAfter(() => session.signOut())
    expect(session.get()).toMatchObject({ isLogin: false, userInfo: null, balance: '0' })
    expect(localStorage.getItem(STORAGE_KEY.userInfo)).toBeNull()
    expect(localStorage.getItem(STORAGE_KEY.isLogin)).toBeNull()
    // Settled: not asked again later.
    expect(timers.pending.size).toBe(0)
    expect(pathsCalled()).toEqual([INFO_PATH])
    expect(navigations).toEqual([])
  })

  it('drops an answer that comes after another login: the new player’s user info stays', async () => {
    const timers = await startUpAnsweredAfter(() =>
      session.signIn({
        token: 'tok-8',
        player_id: 8,
        expires_at: 1_800_000_000,
        user_info: info(8, 'eight'),
      }),
    )
    expect(session.get()).toMatchObject({ isLogin: true, playerId: 8, userInfo: { nickname: 'eight' } })
    expect(JSON.parse(localStorage.getItem(STORAGE_KEY.userInfo) ?? 'null')).toMatchObject({ player_id: 8 })
    // Settled: not asked again later.
    expect(timers.pending.size).toBe(0)
    expect(pathsCalled()).toEqual([INFO_PATH])
  })

  it('drops an answer that comes after the token was removed', async () => {
    storedLogin()
    const held = deferred<unknown>()
    answers.set(INFO_PATH, () => held.promise)
    answers.set(BALANCE_PATH, balance('12.50'))
    const timers = handTimers()
    const starting = startUp({ retry: { timers: timers.timers } })
    await settle()
    localStorage.removeItem(STORAGE_KEY.token)
    held.resolve(info(7, 'fresh'))
    await starting
    expect(session.get().userInfo).toMatchObject({ nickname: 'stored' })
    expect(JSON.parse(localStorage.getItem(STORAGE_KEY.userInfo) ?? 'null')).toMatchObject({
      nickname: 'stored',
    })
    // Settled: not asked again later.
    expect(timers.pending.size).toBe(0)
    expect(pathsCalled()).toEqual([INFO_PATH])
  })

  it('logs out stored user info that has a player id but no token, asking nothing', async () => {
    storedLogin(7, null)
    expect(session.get().isLogin).toBe(true)
    await startUp()
    expect(calls).toEqual([])
    expect(session.get()).toMatchObject({ isLogin: false, userInfo: null, balance: '0.00' })
    expect(localStorage.getItem(STORAGE_KEY.userInfo)).toBeNull()
  })

  it('logs out stored user info that has a token but no player id, asking nothing', async () => {
    storedLogin()
    localStorage.removeItem(STORAGE_KEY.loginData)
    session.syncFromStorage()
    await startUp()
    expect(calls).toEqual([])
    expect(session.get()).toMatchObject({ isLogin: false, userInfo: null, balance: '0.00' })
  })

  it('leaves a logged-out player as they are: the balance logout showed, no one told of a change', async () => {
    expect(session.get().balance).toBe('0')
    const heard = vi.fn()
    const stop = session.subscribe(heard)
    await startUp()
    stop()
    expect(heard).not.toHaveBeenCalled()
    expect(session.get()).toMatchObject({ isLogin: false, balance: '0' })
    expect(calls).toEqual([])
  })

  it('drops the user info, asking no balance, when the server says the session is gone', async () => {
    storedLogin()
    const timers = handTimers()
    answers.set(INFO_PATH, async () => {
      throw new ApiError('session', '登录已过期')
    })
    await startUp({ retry: { timers: timers.timers } })
    expect(session.get()).toMatchObject({ isLogin: false, userInfo: null })
    expect(localStorage.getItem(STORAGE_KEY.userInfo)).toBeNull()
    expect(pathsCalled()).toEqual([INFO_PATH])
    expect(timers.pending.size).toBe(0)
  })

  it('treats an unauthorized answer as a lost session too', async () => {
    storedLogin()
    const timers = handTimers()
    answers.set(INFO_PATH, async () => {
      throw new ApiError('unauthorized', '未登录')
    })
    await startUp({ retry: { timers: timers.timers } })
    expect(session.get()).toMatchObject({ isLogin: false, userInfo: null })
    expect(timers.pending.size).toBe(0)
  })

  it('keeps the session and loads the balance when the server has no users/info, and asks no more', async () => {
    storedLogin()
    const timers = handTimers()
    answers.set(INFO_PATH, async () => {
      throw new ApiError('http', '请求失败', { status: 404, method: 'GET' })
    })
    answers.set(BALANCE_PATH, balance('3.00'))
    await startUp({ retry: { timers: timers.timers } })
    expect(session.get()).toMatchObject({ isLogin: true, userInfo: { nickname: 'stored' }, balance: '3.00' })
    expect(pathsCalled()).toEqual([INFO_PATH, BALANCE_PATH])
    expect(timers.pending.size).toBe(0)
  })

  it('keeps a refusal of the balance from failing start-up', async () => {
    storedLogin()
    answers.set(INFO_PATH, async () => info(7, 'fresh'))
    answers.set(BALANCE_PATH, unreachable)
    await expect(startUp()).resolves.toBeUndefined()
    expect(session.get()).toMatchObject({ isLogin: true, balance: null })
  })

  it('keeps the stored session while the server cannot be reached, and asks again after each wait', async () => {
    storedLogin()
    const timers = handTimers()
    answers.set(INFO_PATH, unreachable)
    await startUp({ retry: { timers: timers.timers } })
    expect(session.get()).toMatchObject({ isLogin: true, userInfo: { nickname: 'stored' }, balance: null })
    expect([...timers.pending].map((t) => t.ms)).toEqual([3_000])
    ;(await timers.asked(3_000)).fire()
    await timers.asked(6_000)
    expect(pathsCalled()).toEqual([INFO_PATH, INFO_PATH])
    answers.set(INFO_PATH, async () => info(7, 'fresh'))
    answers.set(BALANCE_PATH, balance('1.00'))
    ;(await timers.asked(6_000)).fire()
    await settle()
    expect(session.get()).toMatchObject({ userInfo: { nickname: 'fresh' }, balance: '1.00' })
    expect(timers.pending.size).toBe(0)
    expect(START_UP_RETRY_MS).toEqual([3_000, 6_000, 12_000, 30_000])
  })

  it('a second start-up stops the first one’s retrying', async () => {
    storedLogin()
    const first = handTimers()
    answers.set(INFO_PATH, unreachable)
    await startUp({ retry: { timers: first.timers } })
    const second = handTimers()
    await startUp({ retry: { timers: second.timers } })
    expect(first.pending.size).toBe(0)
    expect(second.pending.size).toBe(1)
  })
})

describe('a balance missing when the server answers again', () => {
  it('is asked for at once, for a logged-in player without one', async () => {
    storedLogin()
    answers.set(INFO_PATH, async () => info(7, 'fresh'))
    answers.set(BALANCE_PATH, unreachable)
    await startUp()
    expect(session.get().balance).toBeNull()
    answers.set(BALANCE_PATH, balance('8.00'))
    calls.length = 0
    connectivity.markOffline()
    connectivity.markOnline()
    await settle()
    expect(pathsCalled()).toEqual([BALANCE_PATH])
    expect(session.get().balance).toBe('8.00')
  })

  it('is not asked for when the balance is known', async () => {
    storedLogin()
    answers.set(INFO_PATH, async () => info(7, 'fresh'))
    answers.set(BALANCE_PATH, balance('8.00'))
    await startUp()
    calls.length = 0
    connectivity.markOffline()
    connectivity.markOnline()
    await settle()
    expect(calls).toEqual([])
  })

  it('is not asked for, nor the login page shown, for a logged-out player', async () => {
    await startUp()
    session.setBalance(null)
    connectivity.markOffline()
    connectivity.markOnline()
    await settle()
    expect(calls).toEqual([])
    expect(navigations).toEqual([])
  })

  it('is left to start-up while it is still confirming the session: one balance call, after the user info', async () => {
    storedLogin()
    const timers = handTimers()
    answers.set(INFO_PATH, unreachable)
    await startUp({ retry: { timers: timers.timers } })
    answers.set(INFO_PATH, async () => info(7, 'fresh'))
    answers.set(BALANCE_PATH, balance('8.00'))
    calls.length = 0
    connectivity.markOffline()
    connectivity.markOnline()
    await settle()
    expect(pathsCalled()).toEqual([INFO_PATH, BALANCE_PATH])
    expect(session.get().balance).toBe('8.00')
  })
})

describe('balance refresh', () => {
  it('asks with the player id and keeps both balances', async () => {
    storedLogin()
    answers.set(BALANCE_PATH, balance('4.20'))
    await refreshBalance()
    expect(calls).toEqual([{ path: BALANCE_PATH, input: { query: { player_id: 7 } }, options: {} }])
    expect(session.get()).toMatchObject({ balance: '4.20', trxBalance: '5.00' })
  })

  it('sends a logged-out player to the login page, asking nothing', async () => {
    await refreshBalance()
    expect(calls).toEqual([])
    expect(navigations).toEqual([{ to: '/login', options: {} }])
  })

  it('sends a player whose user info start-up dropped to the login page, asking nothing', async () => {
    storedLogin(7, null)
    await startUp()
    expect(session.get()).toMatchObject({ isLogin: false, playerId: 7 })
    await refreshBalance()
    expect(calls).toEqual([])
    expect(navigations).toEqual([{ to: '/login', options: {} }])
  })

  it('sends stored user info without a player id to the login page, asking nothing', async () => {
    storedLogin()
    localStorage.removeItem(STORAGE_KEY.loginData)
    session.syncFromStorage()
    expect(session.get()).toMatchObject({ isLogin: true, playerId: null })
    await refreshBalance()
    expect(calls).toEqual([])
    expect(navigations).toEqual([{ to: '/login', options: {} }])
  })

  it('drops a balance that answers after a logout', async () => {
    storedLogin()
    const held = deferred<unknown>()
    answers.set(BALANCE_PATH, () => held.promise)
    const refreshing = refreshBalance()
    await settle()
    session.signOut()
    held.resolve({ balance: '99.00', trx_balance: '1.00' })
    await refreshing
    expect(session.get()).toMatchObject({ balance: '0', trxBalance: null })
  })
})

describe('login and logout', () => {
  it('login stores the session, stops start-up’s retrying and loads the balance', async () => {
    storedLogin()
    const timers = handTimers()
    answers.set(INFO_PATH, unreachable)
    await startUp({ retry: { timers: timers.timers } })
    answers.set(LOGIN_PATH, async () => ({
      token: 'tok-9',
      player_id: 9,
      expires_at: 1_800_000_000,
      user_info: info(9, 'nine'),
    }))
    answers.set(BALANCE_PATH, balance('2.00'))
    await logIn({ phone: '13800000009', password: 'secret99' })
    expect(timers.pending.size).toBe(0)
    expect(session.get()).toMatchObject({ isLogin: true, playerId: 9, balance: '2.00' })
    expect(calls.slice(-2)).toEqual([
      { path: LOGIN_PATH, input: { body: { phone: '13800000009', password: 'secret99' } }, options: {} },
      { path: BALANCE_PATH, input: { query: { player_id: 9 } }, options: {} },
    ])
  })

  it('login holds even when the balance cannot be fetched: the placeholder shows', async () => {
    answers.set(LOGIN_PATH, async () => ({
      token: 'tok-9',
      player_id: 9,
      expires_at: 1_800_000_000,
      user_info: info(9, 'nine'),
    }))
    answers.set(BALANCE_PATH, unreachable)
    await expect(logIn({ phone: '13800000009', password: 'secret99' })).resolves.toBeUndefined()
    expect(session.get()).toMatchObject({ isLogin: true, playerId: 9, balance: null })
  })

  it('logout clears the session, stops retrying and replaces the page with the login page', async () => {
    storedLogin()
    const timers = handTimers()
    answers.set(INFO_PATH, unreachable)
    await startUp({ retry: { timers: timers.timers } })
    answers.set(LOGOUT_PATH, unreachable)
    await logOut()
    expect(timers.pending.size).toBe(0)
    expect(session.get()).toMatchObject({ isLogin: false, playerId: null, userInfo: null, balance: '0' })
    expect(navigations).toEqual([{ to: '/login', options: { replace: true } }])
    expect(pathsCalled().at(-1)).toBe(LOGOUT_PATH)
  })
})
