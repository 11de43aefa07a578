// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { happyDom } from '../test-support/happy-dom'
import { installRootFontSize, rootFontSize } from './root-font-size'

describe('rootFontSize', () => {
  it('is width / 375 × 33', () => {
    expect(rootFontSize(375)).toBe(33)
    expect(rootFontSize(320)).toBeCloseTo(28.16, 10)
    expect(rootFontSize(414)).toBeCloseTo(36.432, 10)
    expect(rootFontSize(750)).toBe(66)
  })
})

describe('installRootFontSize', () => {
  it('sets the size at once and again on resize, until stopped', () => {
    happyDom().setViewport({ width: 320, height: 640 })
    const stop = installRootFontSize(window)
    expect(document.documentElement.style.fontSize).toBe('28.16px')
    happyDom().setViewport({ width: 375, height: 640 })
    window.dispatchEvent(new Event('resize'))
    expect(document.documentElement.style.fontSize).toBe('33px')
    stop()
    happyDom().setViewport({ width: 414, height: 640 })
    window.dispatchEvent(new Event('resize'))
    expect(document.documentElement.style.fontSize).toBe('33px')
  })
})
