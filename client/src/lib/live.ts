import type { StreamEventType } from '@shared/contract/stream'
import { PLAYER_ID_PARAM, streamRoute } from '@shared/contract/stream-route'
import { useEffect, useSyncExternalStore } from 'react'
import { requestUrl, sessionLost } from './http'
import { type EventOf, type LiveStatus, LiveStream } from './live-stream'
import { refreshBalance } from './session-actions'
import { session } from './session-store'
import { storage } from './storage'

/** The app's one push channel (docs/realtime.md#the-client). */
export const liveStream = new LiveStream({
  fetch: (url, init) => fetch(url, init),
  // The player's id, as on every call: proxy mode checks the session with the upstream's user info.
  url: () => {
    const playerId = session.get().playerId
    return requestUrl(streamRoute, playerId === null ? undefined : { [PLAYER_ID_PARAM]: playerId })
  },
  token: () => storage.token(),
  random: Math.random,
  setTimeout: (fn, ms) => window.setTimeout(fn, ms),
  clearTimeout: (handle) => window.clearTimeout(handle as number),
  isVisible: () => document.visibilityState === 'visible',
  // After a logout the stream is closed; an end that still comes through is the logout's own.
  onSessionEnd: (message) => {
    if (session.get().isLogin) sessionLost(message)
  },
})

let installed = false

/**
 * Keeps the stream to the session and the page: open while logged in and visible, closed when
 * hidden, reopened (with the last event's id) when shown, on `resume` (a frozen Android tab) and
 * when the network comes back. The balance follows its `balance` events wherever the player is.
 */
export function installLiveStream(): void {
  if (installed) return
  installed = true
  const follow = () => liveStream.setWanted(session.get().isLogin)
  session.subscribe(follow)
  document.addEventListener('visibilitychange', () => liveStream.visibilityChanged())
  document.addEventListener('resume', () => liveStream.reconnectNow())
  window.addEventListener('online', () => liveStream.reconnectNow())
  // The stream's state on the document, for whoever looks (the browser tests wait for `live`).
  liveStream.onStatus((status) => {
    document.documentElement.dataset.stream = status
    document.documentElement.dataset.streamPlayerEvents = String(liveStream.playerEvents)
  })
  liveStream.on('balance', (b) => {
    if (!session.get().isLogin) return
    if (b.currency === 'USDT') session.setBalance(b.balance)
    else session.setTrxBalance(b.balance)
  })
  // A snapshot: what the app holds may be stale (a new connection, or too much was missed).
  liveStream.on('snapshot', () => {
    if (session.get().isLogin) refreshBalance().catch(() => undefined)
  })
  follow()
}

const subscribeStatus = (onChange: () => void) => liveStream.onStatus(onChange)
const getStatus = (): LiveStatus => liveStream.status

/** The stream's status, re-rendering on change. */
export function useLiveStatus(): LiveStatus {
  return useSyncExternalStore(subscribeStatus, getStatus, () => 'off' as LiveStatus)
}

/** True while events arrive: a page may leave its polling off. */
export function useLiveHealthy(): boolean {
  return useLiveStatus() === 'live'
}

/**
 * True while events arrive and the player's own (orders, balance) are among them: a page that
 * follows those may leave its polling off. Not in proxy mode (docs/realtime.md#proxy-mode).
 */
export function useLivePlayerHealthy(): boolean {
  return useLiveStatus() === 'live' && liveStream.playerEvents
}

/** Calls `listener` for each event of this type while the component is mounted. */
export function useLiveEvent<T extends StreamEventType>(
  type: T,
  listener: (data: EventOf<T>) => void,
  deps: readonly unknown[],
): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names what the listener reads
  useEffect(() => liveStream.on(type, listener), [type, ...deps])
}
