// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest'
import { installZoomGuard } from './zoom-guard'

let stop: (() => void) | undefined
afterEach(() => {
  stop?.()
  document.body.innerHTML = ''
})

function touch(type: string, target: EventTarget, touches: number): Event {
  const event = new Event(type, { bubbles: true, cancelable: true })
  Object.defineProperty(event, 'touches', { value: Array.from({ length: touches }, () => ({})) })
  target.dispatchEvent(event)
  return event
}

describe('installZoomGuard', () => {
  it('cancels multi-finger touches (pinch) but not one-finger ones (taps, scrolling)', () => {
    stop = installZoomGuard(document)
    expect(touch('touchstart', document.body, 2).defaultPrevented).toBe(true)
    expect(touch('touchmove', document.body, 2).defaultPrevented).toBe(true)
    expect(touch('touchstart', document.body, 1).defaultPrevented).toBe(false)
    expect(touch('touchmove', document.body, 1).defaultPrevented).toBe(false)
  })

  it('cancels Safari gesture events', () => {
    stop = installZoomGuard(document)
    const event = new Event('gesturestart', { cancelable: true })
    document.dispatchEvent(event)
    expect(event.defaultPrevented).toBe(true)
  })

  it('cancels the zoom of a second tap within 300 ms and still delivers its click', () => {
    let t = 1_000
    stop = installZoomGuard(document, () => t)
    const button = document.createElement('button')
    let clicks = 0
    button.addEventListener('click', () => {
      clicks += 1
    })
    document.body.append(button)

    expect(touch('touchend', button, 0).defaultPrevented).toBe(false)
    t += 300
    expect(touch('touchend', button, 0).defaultPrevented).toBe(true)
    expect(clicks).toBe(1)
    t += 301
    expect(touch('touchend', button, 0).defaultPrevented).toBe(false)
  })

  it('leaves quick taps on form fields alone', () => {
    let t = 1_000
    stop = installZoomGuard(document, () => t)
    const input = document.createElement('input')
    document.body.append(input)
    touch('touchend', input, 0)
    t += 100
    expect(touch('touchend', input, 0).defaultPrevented).toBe(false)
  })

  it('stops when asked', () => {
    installZoomGuard(document)()
    expect(touch('touchstart', document.body, 2).defaultPrevented).toBe(false)
  })
})
