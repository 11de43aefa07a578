import { THEMES, type Theme } from '@shared/constants'
import type { UserInfo } from '@shared/contract/account'
import { boolean, int, optional, positiveInt, readObject, string } from '@shared/plain-read'
import { STORAGE_KEY, type StorageKey } from '@shared/storage-keys'

/**
 * The stored values (docs/product.md#stored-keys) in localStorage. Reads never throw: a value that is missing, unreadable
 * or of the wrong shape reads as absent, so a hand-edited or stale entry cannot break start-up.
 */

function store(): Storage | null {
  try {
    return globalThis.localStorage ?? null
  } catch {
    // Access itself throws when storage is disabled (private modes, sandboxed frames).
    return null
  }
}

export function readRaw(key: StorageKey): string | null {
  try {
    return store()?.getItem(key) ?? null
  } catch {
    return null
  }
}

export function writeRaw(key: StorageKey, value: string): void {
  try {
    store()?.setItem(key, value)
  } catch {
    // Quota or disabled storage: the in-memory state still holds the value for this visit.
  }
}

export function removeKeys(...keys: StorageKey[]): void {
  for (const key of keys) {
    try {
      store()?.removeItem(key)
    } catch {
      // Nothing to do: the key cannot be read back either.
    }
  }
}

// The stored objects are checked by hand (shared/plain-read.ts), not with zod: the session store
// reads them as the app starts, and zod is not part of the first screen (it comes with the
// contract's endpoints, loaded by the pages that call them). storage.test.ts holds each reader to
// the schema it stands for.

function readJson<T>(key: StorageKey, read: (value: unknown) => T | null): T | null {
  const raw = readRaw(key)
  if (raw === null) return null
  try {
    return read(JSON.parse(raw))
  } catch {
    return null
  }
}

/** `loginData` holds the player's id (and when the token expires). */
export interface LoginData {
  player_id: number
  expires_at?: number | undefined
}

export const readLoginData = (value: unknown): LoginData | null =>
  readObject<LoginData>(value, { player_id: positiveInt, expires_at: optional(int) })

/** A stored userInfo, as userInfoSchema (shared/contract/account.ts) parses it. */
export const readUserInfo = (value: unknown): UserInfo | null =>
  readObject<UserInfo>(value, {
    player_id: int,
    nickname: string,
    phone: string,
    invite_code: string,
    has_pay_password: boolean,
    vip_level: int,
    created_at: int,
  })

const FLAG_ON = '1'
const FLAG_OFF = '0'

export const storage = {
  token: (): string | null => readRaw(STORAGE_KEY.token) || null,
  setToken: (token: string) => writeRaw(STORAGE_KEY.token, token),

  isLogin: (): boolean => readRaw(STORAGE_KEY.isLogin) === FLAG_ON,
  setIsLogin: (on: boolean) => writeRaw(STORAGE_KEY.isLogin, on ? FLAG_ON : FLAG_OFF),

  loginData: (): LoginData | null => readJson(STORAGE_KEY.loginData, readLoginData),
  setLoginData: (data: LoginData) => writeRaw(STORAGE_KEY.loginData, JSON.stringify(data)),

  userInfo: (): UserInfo | null => readJson(STORAGE_KEY.userInfo, readUserInfo),
  setUserInfo: (info: UserInfo) => writeRaw(STORAGE_KEY.userInfo, JSON.stringify(info)),

  /** Sound is on unless stored as 0. */
  soundOn: (): boolean => readRaw(STORAGE_KEY.openVoice) !== FLAG_OFF,
  setSoundOn: (on: boolean) => writeRaw(STORAGE_KEY.openVoice, on ? FLAG_ON : FLAG_OFF),

  /** Amounts are shown unless stored as 1. */
  hideAmount: (): boolean => readRaw(STORAGE_KEY.hideAmount) === FLAG_ON,
  setHideAmount: (on: boolean) => writeRaw(STORAGE_KEY.hideAmount, on ? FLAG_ON : FLAG_OFF),

  theme: (): Theme => {
    const raw = readRaw(STORAGE_KEY.theme)
    return THEMES.find((t) => t === raw) ?? 'light'
  },
  setTheme: (theme: Theme) => writeRaw(STORAGE_KEY.theme, theme),
}
