// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest'
import { canReload, isChunkLoadError, reloadNow } from './preload-recovery'

beforeEach(() => sessionStorage.clear())

describe('canReload and reloadNow', () => {
  it('allows one reload, none again within a minute, then one again later', () => {
    let reloads = 0
    let t = 1_000_000
    const now = () => t
    const reload = () => {
      reloads += 1
    }
    expect(canReload(now, sessionStorage)).toBe(true)
    reloadNow(reload, now, sessionStorage)
    expect(reloads).toBe(1)
    t += 5_000
    expect(canReload(now, sessionStorage)).toBe(false)
    t += 60_000
    expect(canReload(now, sessionStorage)).toBe(true)
  })

  it('never reloads without storage, so it cannot loop', () => {
    expect(canReload(Date.now, null)).toBe(false)
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
