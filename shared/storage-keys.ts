/** Keys of the values the client keeps in localStorage (docs/product.md#stored-keys). */
export const STORAGE_KEY = {
  isLogin: 'isLogin',
  token: 'token',
  loginData: 'loginData',
  userInfo: 'userInfo',
  openVoice: 'openVoice',
  hideAmount: 'hideAmount',
  theme: 'app-theme',
  /** The first commitment (terminal hash) of each game chain this device saw, by chain. */
  gameCommitments: 'gameCommitments',
} as const

export type StorageKey = (typeof STORAGE_KEY)[keyof typeof STORAGE_KEY]
