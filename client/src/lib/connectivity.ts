import { useSyncExternalStore } from 'react'

/**
 * Whether the app can reach the server. A call that cannot connect marks it offline; any answer
 * from the server (whatever its code) marks it online again, as do the browser's own online and
 * offline events. While offline the app shows one banner instead of a toast for every failed poll.
 */

type Listener = () => void

class Connectivity {
  private isOnline = true
  private readonly listeners = new Set<Listener>()
  private readonly reconnectListeners = new Set<Listener>()

  get online(): boolean {
    return this.isOnline
  }

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  getSnapshot = (): boolean => this.isOnline

  /** Called each time the server answers again after being unreachable. */
  onReconnect = (listener: Listener): (() => void) => {
    this.reconnectListeners.add(listener)
    return () => this.reconnectListeners.delete(listener)
  }

  private set(online: boolean): void {
    if (online === this.isOnline) return
    this.isOnline = online
    for (const listener of this.listeners) listener()
    if (online) for (const listener of this.reconnectListeners) listener()
  }

  markOffline(): void {
    this.set(false)
  }

  markOnline(): void {
    this.set(true)
  }
}

export const connectivity = new Connectivity()

const events = globalThis.window
if (events && typeof events.addEventListener === 'function') {
  events.addEventListener('offline', () => connectivity.markOffline())
  events.addEventListener('online', () => connectivity.markOnline())
}

export function useOnline(): boolean {
  return useSyncExternalStore(connectivity.subscribe, connectivity.getSnapshot)
}
