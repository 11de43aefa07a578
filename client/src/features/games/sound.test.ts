// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { beep } from './sound'

describe('beep', () => {
  afterEach(() => vi.restoreAllMocks())

  it('only logs when the browser cannot play a sound (docs/product.md#error-catalogue)', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    // happy-dom has no WebAudio: the call must not throw.
    expect(() => beep('draw')).not.toThrow()
    expect(() => beep('win')).not.toThrow()
    expect(warn).toHaveBeenCalledWith('sound failed', expect.anything())
  })
})
