// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest'
import { installPreloadRecovery, isChunkLoadError, reloadOnce } from './preload-recovery'

beforeEach(() => sessionStorage.clear())

describe('reloadOnce', () => {
  it('reloads the first time and not again within a minute, then again later', () => {
    let reloads = 0
    let t = 1_000_000
    const reload = () => {
      reloads += 1
    }
    expect(reloadOnce(reload, () => t, sessionStorage)).toBe(true)
    t += 5_000
    expect(reloadOnce(reload, () => t, sessionStorage)).toBe(false)
    expect(reloads).toBe(1)
    t += 60_000
    expect(reloadOnce(reload, () => t, sessionStorage)).toBe(true)
    expect(reloads).toBe(2)
  })

  it('never reloads without storage, so it cannot loop', () => {
    let reloads = 0
    expect(reloadOnce(() => (reloads += 1), Date.now, null)).toBe(false)
    expect(reloads).toBe(0)
  })
})

describe('installPreloadRecovery', () => {
  it('handles the first vite:preloadError by reloading, and lets the second one through', () => {
    let reloads = 0
    const stop = installPreloadRecovery(window, () => {
      reloads += 1
    })
    const first = new Event('vite:preloadError', { cancelable: true })
    window.dispatchEvent(first)
    expect(first.defaultPrevented).toBe(true)
    const second = new Event('vite:preloadError', { cancelable: true })
    window.dispatchEvent(second)
    expect(second.defaultPrevented).toBe(false)
    expect(reloads).toBe(1)
    stop()
  })
})

describe('isChunkLoadError', () => {
  it('recognises the browsers’ messages for a failed dynamic import', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'))).toBe(
      true,
    )
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true)
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false)
    expect(isChunkLoadError('Failed to fetch dynamically imported module')).toBe(false)
  })
})
