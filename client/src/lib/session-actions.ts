import type { login } from '@shared/contract/account'
import type { BodyOf } from '@shared/contract/endpoint'
import { getBalanceRoute, userInfoRoute } from '@shared/contract/first-screen'
import { paths } from '../config/paths'
import { callApi, callApiEarly } from './http'
import { navigateTo } from './navigation'
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
  if (session.get().playerId === playerId) session.setBalance(data.balance)
}

/**
 * Start-up: a stored userInfo already counts as logged in (the store reads it). With a stored
 * player id the user info is refetched and stored, then the balance refreshed; if the fetch fails,
 * user info is cleared and the user is logged out.
 */
export async function startUp(): Promise<void> {
  const playerId = storage.loginData()?.player_id
  if (playerId === undefined || storage.token() === null) {
    // Stored user info without a player id or token cannot be confirmed (a session lost earlier).
    if (session.get().userInfo !== null || session.get().isLogin) session.dropUserInfo()
    return
  }
  try {
    session.confirmUserInfo(
      await callApiEarly(
        userInfoRoute,
        accountContract().then((m) => m.userInfo),
        { query: { player_id: playerId } },
      ),
    )
  } catch {
    session.dropUserInfo()
    return
  }
  await refreshBalance().catch(() => undefined)
}

export async function logIn(body: BodyOf<typeof login>): Promise<void> {
  const { login } = await accountContract()
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
  session.signOut()
  navigateTo(paths.login, { replace: true })
  await call.catch(() => undefined)
}
