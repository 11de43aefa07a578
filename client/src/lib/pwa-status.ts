import type { RegisterSWOptions } from 'vite-plugin-pwa/types'

/**
 * The installable app's state as the page sees it (docs/pwa.md): whether a new build is waiting to
 * take over, and whether the network is gone. The service worker precaches the shell and every
 * hashed asset, so a reload without network still opens the app; the banner then says that what it
 * shows may be stale. A new build is never forced on the page: the player is offered a refresh.
 */

export const PWA_TEXT = {
  update: '有新版本，点击刷新',
  updating: '正在更新…',
  offline: '网络已断开，当前显示的内容可能不是最新的',
} as const

/** How often an open page asks the server whether sw.js changed (also when it becomes visible again). */
export const UPDATE_CHECK_INTERVAL_MS = 30 * 60 * 1000

export interface PwaState {
  /** A new service worker is installed and waiting: the page can switch to the new build. */
  readonly updateReady: boolean
  /** The player chose to refresh; the page reloads once the new worker controls it. */
  readonly updating: boolean
  readonly offline: boolean
}

/** `registerSW` of `virtual:pwa-register`: returns the function that activates a waiting worker. */
export type RegisterServiceWorker = (options: RegisterSWOptions) => (reloadPage?: boolean) => Promise<void>

/** What start() needs from the page: the window's events, the network flag and timers. */
export interface PwaHost {
  addEventListener(type: 'online' | 'offline', listener: () => void): void
  removeEventListener(type: 'online' | 'offline', listener: () => void): void
  readonly navigator: { readonly onLine: boolean }
  readonly document: {
    readonly visibilityState: DocumentVisibilityState
    addEventListener(type: 'visibilitychange', listener: () => void): void
    removeEventListener(type: 'visibilitychange', listener: () => void): void
  }
  setInterval(handler: () => void, ms: number): number
  clearInterval(id: number): void
}

type Listener = () => void

export class PwaStatus {
  private state: PwaState = { updateReady: false, updating: false, offline: false }
  private readonly listeners = new Set<Listener>()
  private activateUpdate: ((reloadPage?: boolean) => Promise<void>) | null = null
  private registration: ServiceWorkerRegistration | undefined
  private lastCheck = 0

  get = (): PwaState => this.state

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  private set(patch: Partial<PwaState>): void {
    const next = { ...this.state, ...patch }
    const prev = this.state
    if (
      next.updateReady === prev.updateReady &&
      next.updating === prev.updating &&
      next.offline === prev.offline
    )
      return
    this.state = next
    for (const listener of this.listeners) listener()
  }

  /**
   * Registers the service worker (where `register` is given and the browser has them) and follows
   * the network. Returns a function that stops listening.
   */
  start(host: PwaHost, register?: RegisterServiceWorker, now: () => number = Date.now): () => void {
    const sync = () => this.set({ offline: !host.navigator.onLine })
    sync()
    host.addEventListener('online', sync)
    host.addEventListener('offline', sync)

    const checkForUpdate = () => {
      const registration = this.registration
      if (!registration || !host.navigator.onLine || now() - this.lastCheck < UPDATE_CHECK_INTERVAL_MS) return
      this.lastCheck = now()
      // Offline or a server hiccup: the next check tries again.
      registration.update().catch(() => undefined)
    }
    const onVisible = () => {
      if (host.document.visibilityState === 'visible') checkForUpdate()
    }
    host.document.addEventListener('visibilitychange', onVisible)
    const timer = host.setInterval(checkForUpdate, UPDATE_CHECK_INTERVAL_MS)

    if (register) {
      this.activateUpdate = register({
        immediate: true,
        onNeedRefresh: () => this.set({ updateReady: true }),
        onRegisteredSW: (_url, registration) => {
          this.registration = registration
          // Registering fetched sw.js just now.
          this.lastCheck = now()
        },
        onRegisterError: (error: unknown) => console.warn('service worker not registered', error),
      })
    }

    return () => {
      host.removeEventListener('online', sync)
      host.removeEventListener('offline', sync)
      host.document.removeEventListener('visibilitychange', onVisible)
      host.clearInterval(timer)
    }
  }

  /** Tells the waiting worker to take over; the page reloads when it does (vite-plugin-pwa). */
  async applyUpdate(): Promise<void> {
    if (!this.state.updateReady || this.state.updating || !this.activateUpdate) return
    this.set({ updating: true })
    try {
      await this.activateUpdate(true)
    } catch (error) {
      console.warn('update could not be applied', error)
      this.set({ updating: false })
    }
  }
}

export const pwaStatus = new PwaStatus()
