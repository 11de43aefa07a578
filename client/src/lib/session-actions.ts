import type { login } from '@shared/contract/account'
import type { BodyOf } from '@shared/contract/endpoint'
import { getBalanceRoute, userInfoRoute } from '@shared/contract/first-screen'
import { paths } from '../config/paths'
import { connectivity } from './connectivity'
import { isEndpointMissing } from './endpoint-status'
import { ApiError, callApi, callApiEarly } from './http'
import { navigateTo } from './navigation'
import { type Retrying, type RetryOptions, retryUntil } from './retry-until'
import { session } from './session-store'
import { storage } from './storage'

/** The session flows (docs/product.md#session-flows) that talk to the API. Failures are already shown by callApi. */

/**
 * The account endpoints, loaded with the first call: their schemas, and zod with them, are not part
 * of the first screen. The module is fetched once and shared with the pages that import it. The
 * start-up calls leave before it has loaded (their routes are in the entry) and are parsed once it
 * is there.
 */
const accountContract = () => import('@shared/contract/account')

/** Balance refresh; while logged out it sends the user to /login instead. */
export async function refreshBalance(): Promise<void> {
  const { isLogin, playerId } = session.get()
  if (!isLogin || playerId === null) {
    navigateTo(paths.login)
    return
  }
  const data = await callApiEarly(
    getBalanceRoute,
    accountContract().then((m) => m.getBalance),
    { query: { player_id: playerId } },
  )
  // A logout while the call was in flight wins.
  if (session.get().playerId === playerId) {
    session.setBalance(data.balance)
    session.setTrxBalance(data.trx_balance)
  }
}

/** Waits between start-up's attempts to confirm the stored session while the server cannot be reached. */
export const START_UP_RETRY_MS = [3_000, 6_000, 12_000, 30_000] as const

let confirming: Retrying | null = null

/**
 * Fetches the user info of the stored session: 'confirmed' (stored, logged in), 'lost' (the server
 * said the session is gone; the HTTP client has logged out), 'missing' (the server does not offer
 * the user info: the session stays as the login stored it, and is not asked about again) or
 * 'unreachable' (no answer, a time-out or any other failure: the stored session stays and is asked
 * about again).
 */
async function confirmSession(
  playerId: number,
): Promise<'confirmed' | 'lost' | 'missing' | 'superseded' | 'unreachable'> {
  try {
    const info = await callApiEarly(
      userInfoRoute,
      accountContract().then((m) => m.userInfo),
      { query: { player_id: playerId } },
      // Offline, the banner says so; a toast on every retry would repeat it.
      { quiet: !connectivity.online },
    )
    // A logout or another login while the call was in flight wins.
    if (storage.loginData()?.player_id !== playerId || storage.token() === null) return 'superseded'
    session.confirmUserInfo(info)
    return 'confirmed'
  } catch (err) {
    if (err instanceof ApiError && (err.kind === 'session' || err.kind === 'unauthorized')) return 'lost'
    return isEndpointMissing(err) ? 'missing' : 'unreachable'
  }
}

/**
 * Start-up (docs/product.md#session-flows): a stored userInfo already counts as logged in (the
 * store reads it). With a stored player id the user info is refetched and stored, then the balance
 * refreshed. Only an answer that the session is gone logs the player out; when the server cannot be
 * reached the stored session and user info stay (the balance shows its placeholder) and the
 * confirmation is tried again when the server answers again, and every few seconds meanwhile.
 */
export async function startUp(options: { retry?: Partial<RetryOptions> } = {}): Promise<void> {
  confirming?.stop()
  confirming = null
  watchForMissingBalance()
  const playerId = storage.loginData()?.player_id
  if (playerId === undefined || storage.token() === null) {
    // Stored user info without a player id or token cannot be confirmed (a session lost earlier).
    if (session.get().userInfo !== null || session.get().isLogin) session.dropUserInfo()
    return
  }
  const attempt = async (): Promise<boolean> => {
    const outcome = await confirmSession(playerId)
    if (outcome === 'unreachable') return false
    if (outcome === 'confirmed' || outcome === 'missing') await refreshBalance().catch(() => undefined)
    // The session is gone (the HTTP client logged out): the user info it stood for goes too.
    else if (outcome === 'lost') session.dropUserInfo()
    return true
  }
  if (await attempt()) return
  confirming = retryUntil(attempt, {
    delays: START_UP_RETRY_MS,
    onReconnect: connectivity.onReconnect,
    ...options.retry,
  })
}

let balanceWatched = false

/**
 * A balance call that failed (offline, a busy server) leaves the placeholder; when the server
 * answers again the balance is asked for at once rather than at the next page that shows it.
 */
function watchForMissingBalance(): void {
  if (balanceWatched) return
  balanceWatched = true
  connectivity.onReconnect(() => {
    const { isLogin, balance } = session.get()
    if (isLogin && balance === null && (confirming?.done ?? true)) refreshBalance().catch(() => undefined)
  })
}

/** Stops start-up's retrying (a login or logout made it moot; tests). */
export function stopConfirming(): void {
  confirming?.stop()
  confirming = null
}

export async function logIn(body: BodyOf<typeof login>): Promise<void> {
  const { login } = await accountContract()
  stopConfirming()
  session.signIn(await callApi(login, { body }))
  await refreshBalance().catch(() => undefined)
}

/**
 * Logout: state and balance cleared, the logout endpoint called, and token, userInfo and loginData
 * removed. The call reads the token as it starts, so the keys can go at once.
 */
export async function logOut(): Promise<void> {
  const { logout } = await accountContract()
  const call = callApi(logout)
  stopConfirming()
  session.signOut()
  navigateTo(paths.login, { replace: true })
  await call.catch(() => undefined)
}
