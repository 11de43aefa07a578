// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import type { RegisterSWOptions } from 'vite-plugin-pwa/types'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { mountPwaBanner, PwaBanner } from './pwa-banner'
import { PWA_TEXT, PwaStatus, UPDATE_CHECK_INTERVAL_MS } from './pwa-status'

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

/** A page whose network flag, visibility and timers the test controls. */
function fakeHost(onLine = true) {
  const events = new EventTarget()
  const doc = new EventTarget() as EventTarget & { visibilityState: DocumentVisibilityState }
  doc.visibilityState = 'visible'
  const timers: (() => void)[] = []
  const host = {
    navigator: { onLine },
    document: doc,
    addEventListener: (type: string, fn: () => void) => events.addEventListener(type, fn),
    removeEventListener: (type: string, fn: () => void) => events.removeEventListener(type, fn),
    setInterval: (fn: () => void) => timers.push(fn),
    clearInterval: (id: number) => {
      timers[id - 1] = () => undefined
    },
  }
  return {
    host,
    goOffline() {
      host.navigator.onLine = false
      events.dispatchEvent(new Event('offline'))
    },
    goOnline() {
      host.navigator.onLine = true
      events.dispatchEvent(new Event('online'))
    },
    show() {
      doc.visibilityState = 'visible'
      doc.dispatchEvent(new Event('visibilitychange'))
    },
    tick: () => {
      for (const t of timers) t()
    },
  }
}

/** Stands in for vite-plugin-pwa's registerSW, keeping the callbacks it was given. */
function fakeRegister() {
  let options: RegisterSWOptions = {}
  const activate = vi.fn(async (_reload?: boolean) => undefined)
  const register = vi.fn((given: RegisterSWOptions) => {
    options = given
    return activate
  })
  return { register, activate, options: () => options }
}

describe('PwaStatus', () => {
  it('registers at once (the page has loaded already) and offers the update only when a worker waits', async () => {
    const status = new PwaStatus()
    const { register, activate, options } = fakeRegister()
    status.start(fakeHost().host, register)
    expect(register).toHaveBeenCalledOnce()
    expect(options().immediate).toBe(true)
    expect(status.get().updateReady).toBe(false)

    await status.applyUpdate()
    expect(activate).not.toHaveBeenCalled()

    options().onNeedRefresh?.()
    expect(status.get().updateReady).toBe(true)
    await status.applyUpdate()
    expect(activate).toHaveBeenCalledExactlyOnceWith(true)
    expect(status.get().updating).toBe(true)
    // A second tap while the new worker takes over does nothing more.
    await status.applyUpdate()
    expect(activate).toHaveBeenCalledOnce()
  })

  it('lets the player try again when activating the update fails', async () => {
    const status = new PwaStatus()
    const { register, activate, options } = fakeRegister()
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    activate.mockRejectedValueOnce(new Error('no worker'))
    status.start(fakeHost().host, register)
    options().onNeedRefresh?.()
    await status.applyUpdate()
    expect(status.get()).toMatchObject({ updateReady: true, updating: false })
  })

  it('follows the network, starting from navigator.onLine', () => {
    const status = new PwaStatus()
    const page = fakeHost(false)
    const stop = status.start(page.host)
    expect(status.get().offline).toBe(true)
    page.goOnline()
    expect(status.get().offline).toBe(false)
    page.goOffline()
    expect(status.get().offline).toBe(true)
    stop()
    page.goOnline()
    expect(status.get().offline).toBe(true)
  })

  it('asks for a new sw.js when the page is shown again or on the interval, not more often than the interval', () => {
    let now = 1_000_000
    const status = new PwaStatus()
    const page = fakeHost()
    const { register, options } = fakeRegister()
    status.start(page.host, register, () => now)
    const update = vi.fn(async () => undefined)
    options().onRegisteredSW?.('/sw.js', { update } as unknown as ServiceWorkerRegistration)

    page.show()
    expect(update).not.toHaveBeenCalled()
    now += UPDATE_CHECK_INTERVAL_MS
    page.show()
    expect(update).toHaveBeenCalledOnce()
    page.tick()
    expect(update).toHaveBeenCalledOnce()
    now += UPDATE_CHECK_INTERVAL_MS
    page.goOffline()
    page.tick()
    expect(update).toHaveBeenCalledOnce()
    page.goOnline()
    page.tick()
    expect(update).toHaveBeenCalledTimes(2)
  })
})

describe('PwaBanner', () => {
  it('shows nothing while online with no update', () => {
    const status = new PwaStatus()
    status.start(fakeHost().host)
    const { container } = render(<PwaBanner status={status} />)
    expect(container.innerHTML).toBe('')
  })

  it('shows the offline notice, and the update button that activates the new worker', async () => {
    const status = new PwaStatus()
    const page = fakeHost()
    const { register, activate, options } = fakeRegister()
    status.start(page.host, register)
    render(<PwaBanner status={status} />)

    act(() => page.goOffline())
    expect(screen.getByRole('status').textContent).toBe(PWA_TEXT.offline)
    act(() => page.goOnline())
    expect(screen.queryByRole('status')).toBeNull()

    act(() => options().onNeedRefresh?.())
    const button = screen.getByRole('button', { name: PWA_TEXT.update })
    await act(async () => {
      fireEvent.click(button)
    })
    expect(activate).toHaveBeenCalledExactlyOnceWith(true)
    expect(screen.getByRole('button', { name: PWA_TEXT.updating })).toHaveProperty('disabled', true)
  })

  it('mounts in its own element at the end of the body and removes it again', () => {
    const status = new PwaStatus()
    let unmount: (() => void) | undefined
    act(() => {
      unmount = mountPwaBanner(status, document)
    })
    expect(document.body.lastElementChild?.id).toBe('pwa-banner')
    act(() => unmount?.())
    expect(document.getElementById('pwa-banner')).toBeNull()
  })
})
