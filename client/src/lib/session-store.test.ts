// @vitest-environment happy-dom
import type { UserInfo } from '@shared/contract/account'
import { STORAGE_KEY } from '@shared/storage-keys'
import { act, renderHook } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { BALANCE_PLACEHOLDER, SessionStore, session, useSession } from './session-store'

/** The session store on its own: what each flow keeps, stores and removes (docs/product.md#session-flows). */

const INFO: UserInfo = {
  player_id: 7,
  nickname: '玩家7',
  phone: '138****0007',
  invite_code: 'ABC123',
  has_pay_password: false,
  vip_level: 0,
  created_at: 1_700_000_000,
}
const LOGIN = { token: 'tok-7', player_id: 7, expires_at: 1_800_000_000, user_info: INFO }

const stored = () =>
  Object.fromEntries(
    Object.values(STORAGE_KEY)
      .map((k) => [k, localStorage.getItem(k)])
      .filter(([, v]) => v !== null),
  )

beforeEach(() => {
  localStorage.clear()
  document.documentElement.removeAttribute('data-theme')
})

describe('SessionStore', () => {
  it('starts logged out with the default balance when nothing is stored', () => {
    expect(new SessionStore().get()).toEqual({
      isLogin: false,
      playerId: null,
      balance: '0.00',
      trxBalance: null,
      userInfo: null,
      soundOn: true,
      hideAmount: false,
      theme: 'light',
    })
  })

  it('starts logged in, balance unknown, from a stored user info and login data', () => {
    localStorage.setItem(STORAGE_KEY.userInfo, JSON.stringify(INFO))
    localStorage.setItem(STORAGE_KEY.loginData, JSON.stringify({ player_id: 7 }))
    localStorage.setItem(STORAGE_KEY.openVoice, '0')
    localStorage.setItem(STORAGE_KEY.hideAmount, '1')
    localStorage.setItem(STORAGE_KEY.theme, 'dark')
    expect(new SessionStore().get()).toEqual({
      isLogin: true,
      playerId: 7,
      balance: null,
      trxBalance: null,
      userInfo: INFO,
      soundOn: false,
      hideAmount: true,
      theme: 'dark',
    })
  })

  it('signIn stores the token, login data, user info and flag, and the balance is unknown until asked', () => {
    const s = new SessionStore()
    s.setTrxBalance('3')
    s.signIn(LOGIN)
    expect(stored()).toEqual({
      [STORAGE_KEY.token]: 'tok-7',
      [STORAGE_KEY.loginData]: JSON.stringify({ player_id: 7, expires_at: 1_800_000_000 }),
      [STORAGE_KEY.userInfo]: JSON.stringify(INFO),
      [STORAGE_KEY.isLogin]: '1',
    })
    expect(s.get()).toMatchObject({
      isLogin: true,
      playerId: 7,
      userInfo: INFO,
      balance: null,
      trxBalance: null,
    })
  })

  it('confirmUserInfo stores the fresh user info and the flag', () => {
    const s = new SessionStore()
    const fresh = { ...INFO, nickname: '新名字' }
    s.confirmUserInfo(fresh)
    expect(stored()).toEqual({ [STORAGE_KEY.userInfo]: JSON.stringify(fresh), [STORAGE_KEY.isLogin]: '1' })
    expect(s.get()).toMatchObject({ isLogin: true, userInfo: fresh })
  })

  it('dropUserInfo removes the user info only, and shows the default balance', () => {
    const s = new SessionStore()
    s.signIn(LOGIN)
    s.setBalance('5.00')
    s.setTrxBalance('1')
    s.dropUserInfo()
    expect(Object.keys(stored()).sort()).toEqual(
      [STORAGE_KEY.isLogin, STORAGE_KEY.loginData, STORAGE_KEY.token].sort(),
    )
    expect(s.get()).toMatchObject({
      isLogin: false,
      userInfo: null,
      balance: '0.00',
      trxBalance: null,
      playerId: 7,
    })
  })

  it('loseSession removes the flag, the token and the login data, keeping the user info stored', () => {
    const s = new SessionStore()
    s.signIn(LOGIN)
    s.setBalance('5.00')
    s.loseSession()
    expect(stored()).toEqual({ [STORAGE_KEY.userInfo]: JSON.stringify(INFO) })
    expect(s.get()).toMatchObject({
      isLogin: false,
      playerId: null,
      userInfo: null,
      balance: '0.00',
      trxBalance: null,
    })
  })

  it('signOut removes all four and shows the logged-out balance', () => {
    const s = new SessionStore()
    s.signIn(LOGIN)
    s.setHideAmount(true)
    s.signOut()
    expect(stored()).toEqual({ [STORAGE_KEY.hideAmount]: '1' })
    expect(s.get()).toMatchObject({
      isLogin: false,
      playerId: null,
      userInfo: null,
      balance: '0',
      trxBalance: null,
    })
  })

  it('re-reads storage, keeping the balances it knows while the player is the same', () => {
    const s = new SessionStore()
    s.signIn(LOGIN)
    s.setBalance('9.00')
    s.setTrxBalance('2')
    s.syncFromStorage()
    expect(s.get()).toMatchObject({ playerId: 7, balance: '9.00', trxBalance: '2' })
    // Another tab logged in as someone else.
    localStorage.setItem(STORAGE_KEY.loginData, JSON.stringify({ player_id: 8 }))
    localStorage.setItem(STORAGE_KEY.userInfo, JSON.stringify({ ...INFO, player_id: 8 }))
    s.syncFromStorage()
    expect(s.get()).toMatchObject({ playerId: 8, balance: null, trxBalance: null })
    // And logged out.
    localStorage.clear()
    s.syncFromStorage()
    expect(s.get()).toMatchObject({ isLogin: false, playerId: null, balance: '0.00', trxBalance: null })
  })

  it('applies a theme another tab stored, and only a changed one', () => {
    const s = new SessionStore()
    localStorage.setItem(STORAGE_KEY.theme, 'dark')
    s.syncFromStorage()
    expect(s.get().theme).toBe('dark')
    expect(document.documentElement.getAttribute('data-theme')).toBe('dark')
    document.documentElement.removeAttribute('data-theme')
    s.syncFromStorage()
    expect(document.documentElement.getAttribute('data-theme')).toBeNull()
  })

  it('stores and applies the settings', () => {
    const s = new SessionStore()
    s.toggleTheme()
    expect(s.get().theme).toBe('dark')
    expect(localStorage.getItem(STORAGE_KEY.theme)).toBe('dark')
    expect(document.documentElement.getAttribute('data-theme')).toBe('dark')
    s.toggleTheme()
    expect(s.get().theme).toBe('light')
    expect(document.documentElement.getAttribute('data-theme')).toBe('light')
    s.setSoundOn(false)
    s.setHideAmount(true)
    expect(s.get()).toMatchObject({ soundOn: false, hideAmount: true })
    expect(localStorage.getItem(STORAGE_KEY.openVoice)).toBe('0')
    expect(localStorage.getItem(STORAGE_KEY.hideAmount)).toBe('1')
  })

  it('tells its listeners of every change until they unsubscribe', () => {
    const s = new SessionStore()
    const heard = vi.fn()
    const stop = s.subscribe(heard)
    s.setBalance('1.00')
    s.setTrxBalance(null)
    expect(heard).toHaveBeenCalledTimes(2)
    expect(s.get().balance).toBe('1.00')
    stop()
    s.setBalance('2.00')
    expect(heard).toHaveBeenCalledTimes(2)
  })

  it('shows the placeholder for a balance not known yet', () => {
    expect(BALANCE_PLACEHOLDER).toBe('--')
  })
})

describe('useSession', () => {
  it('renders what it selects, and again when the session changes', () => {
    const { result } = renderHook(() => useSession((s) => s.balance))
    expect(result.current).toBe(session.get().balance)
    act(() => session.setBalance('42.00'))
    expect(result.current).toBe('42.00')
  })
})
