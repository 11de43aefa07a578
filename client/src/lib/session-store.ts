import { DEFAULT_BALANCE, LOGGED_OUT_BALANCE, type Theme } from '@shared/constants'
import type { login, UserInfo } from '@shared/contract/account'
import type { DataOf } from '@shared/contract/endpoint'
import { STORAGE_KEY } from '@shared/storage-keys'
import { useSyncExternalStore } from 'react'
import { removeKeys, storage } from './storage'
import { applyTheme } from './theme'

/** Session state (docs/product.md#stored-keys), mirrored to localStorage on every change docs/product.md#session-flows names. */
export interface SessionState {
  readonly isLogin: boolean
  readonly playerId: number | null
  /**
   * A decimal string such as 0.00 (0 right after logout); null while logged in until the first
   * balance arrives, which the app shows as a placeholder ({@link BALANCE_PLACEHOLDER}), never as 0.00.
   */
  readonly balance: string | null
  /** The TRX balance beside it: null until a balance answer brings it (and after any logout). */
  readonly trxBalance: string | null
  readonly userInfo: UserInfo | null
  readonly soundOn: boolean
  readonly hideAmount: boolean
  readonly theme: Theme
}

type Listener = () => void

/** What stands for a balance the app does not know yet (a logged-in start-up before its answer). */
export const BALANCE_PLACEHOLDER = '--'

export class SessionStore {
  private state: SessionState
  private readonly listeners = new Set<Listener>()

  constructor() {
    this.state = SessionStore.fromStorage()
  }

  private static fromStorage(): SessionState {
    const userInfo = storage.userInfo()
    return {
      // docs/product.md#session-flows: a stored userInfo means logged in until start-up says otherwise.
      isLogin: userInfo !== null,
      playerId: storage.loginData()?.player_id ?? null,
      // Logged in: unknown until the first balance call answers; logged out: the default.
      balance: userInfo !== null ? null : DEFAULT_BALANCE,
      trxBalance: null,
      userInfo,
      soundOn: storage.soundOn(),
      hideAmount: storage.hideAmount(),
      theme: storage.theme(),
    }
  }

  /** Re-reads the stored values, as at start-up (another tab changed them, or a test reloads). */
  syncFromStorage(): void {
    const { balance, trxBalance } = this.state
    const next = SessionStore.fromStorage()
    if (next.theme !== this.state.theme) applyTheme(next.theme)
    const same = next.playerId === this.state.playerId
    this.set({ ...next, balance: same ? balance : next.balance, trxBalance: same ? trxBalance : null })
  }

  get = (): SessionState => this.state

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  private set(patch: Partial<SessionState>): void {
    this.state = { ...this.state, ...patch }
    for (const listener of this.listeners) listener()
  }

  /** A successful login: token, loginData, userInfo and the flag are stored. */
  signIn(data: DataOf<typeof login>): void {
    storage.setToken(data.token)
    storage.setLoginData({ player_id: data.player_id, expires_at: data.expires_at })
    storage.setUserInfo(data.user_info)
    storage.setIsLogin(true)
    this.set({
      isLogin: true,
      playerId: data.player_id,
      userInfo: data.user_info,
      balance: null,
      trxBalance: null,
    })
  }

  /** Start-up refetched the user info: it is stored and the user is logged in. */
  confirmUserInfo(userInfo: UserInfo): void {
    storage.setUserInfo(userInfo)
    storage.setIsLogin(true)
    this.set({ isLogin: true, userInfo })
  }

  /** Start-up found nothing to confirm the user with: user info is cleared and the user is logged out. */
  dropUserInfo(): void {
    removeKeys(STORAGE_KEY.userInfo)
    this.set({ isLogin: false, userInfo: null, balance: DEFAULT_BALANCE, trxBalance: null })
  }

  /** Session loss (docs/product.md#error-catalogue): isLogin, token and loginData are cleared. */
  loseSession(): void {
    removeKeys(STORAGE_KEY.isLogin, STORAGE_KEY.token, STORAGE_KEY.loginData)
    this.set({ isLogin: false, playerId: null, userInfo: null, balance: DEFAULT_BALANCE, trxBalance: null })
  }

  /** Logout (docs/product.md#session-flows): state and balance cleared, token, userInfo and loginData removed. */
  signOut(): void {
    removeKeys(STORAGE_KEY.token, STORAGE_KEY.userInfo, STORAGE_KEY.loginData, STORAGE_KEY.isLogin)
    this.set({
      isLogin: false,
      playerId: null,
      userInfo: null,
      balance: LOGGED_OUT_BALANCE,
      trxBalance: null,
    })
  }

  /** null: not known (yet); shown as the placeholder. */
  setBalance(balance: string | null): void {
    this.set({ balance })
  }

  /** The TRX balance from a balance answer or a TRX ledger row. */
  setTrxBalance(trxBalance: string | null): void {
    this.set({ trxBalance })
  }

  setTheme(theme: Theme): void {
    storage.setTheme(theme)
    applyTheme(theme)
    this.set({ theme })
  }

  toggleTheme(): void {
    this.setTheme(this.state.theme === 'dark' ? 'light' : 'dark')
  }

  setSoundOn(soundOn: boolean): void {
    storage.setSoundOn(soundOn)
    this.set({ soundOn })
  }

  setHideAmount(hideAmount: boolean): void {
    storage.setHideAmount(hideAmount)
    this.set({ hideAmount })
  }
}

/** The app's one session. */
export const session = new SessionStore()

export function useSession<T>(select: (state: SessionState) => T): T {
  return useSyncExternalStore(session.subscribe, () => select(session.get()))
}
