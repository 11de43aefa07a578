// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { playSound, SOUNDS, soundSeconds } from './sound'

describe('game sounds', () => {
  afterEach(() => vi.restoreAllMocks())

  it('only logs when the browser cannot play a sound (docs/product.md#error-catalogue)', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    // happy-dom has no WebAudio: the call must not throw.
    expect(() => playSound('draw')).not.toThrow()
    expect(() => playSound('win')).not.toThrow()
    expect(warn).toHaveBeenCalledWith('sound failed', expect.anything())
  })

  it('makes the draw a chime of at least 0.4 s and the win a longer, different one', () => {
    expect(soundSeconds('draw')).toBeGreaterThanOrEqual(0.4)
    expect(soundSeconds('win')).toBeGreaterThan(soundSeconds('draw'))
    const pitches = (k: 'draw' | 'win') => SOUNDS[k].map((n) => n.hz).join(',')
    expect(pitches('win')).not.toBe(pitches('draw'))
    expect(SOUNDS.win.length).toBeGreaterThan(1)
  })

  it('schedules every note of the sound on a working AudioContext', () => {
    const started: number[] = []
    const param = () => ({ value: 0, setValueAtTime: vi.fn(), exponentialRampToValueAtTime: vi.fn() })
    class FakeContext {
      currentTime = 0
      state = 'running'
      destination = {}
      createOscillator() {
        return {
          type: 'sine',
          frequency: param(),
          connect: vi.fn(),
          start: (t: number) => started.push(t),
          stop: vi.fn(),
        }
      }
      createGain() {
        return { gain: param(), connect: vi.fn() }
      }
    }
    vi.stubGlobal('AudioContext', FakeContext)
    vi.resetModules()
    return import('./sound').then((m) => {
      m.playSound('win')
      expect(started).toHaveLength(SOUNDS.win.length)
      vi.unstubAllGlobals()
    })
  })
})
