// @vitest-environment happy-dom

import { CAPTURE_TIMEOUT_MS } from '@shared/constants'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ToastRequest } from './copy'
import {
  buildRenderOptions,
  CaptureTimeoutError,
  captureElement,
  type Renderer,
  renderToPng,
  screenshotFileName,
  withTimeout,
} from './screenshot'

describe('screenshotFileName', () => {
  it('names the file by the millisecond timestamp', () => {
    expect(screenshotFileName(1_763_800_000_123)).toBe('1763800000123.png')
    expect(screenshotFileName(1_763_800_000_123.9)).toBe('1763800000123.png')
  })
})

describe('buildRenderOptions', () => {
  it('uses the device pixel ratio, a 15000 ms image timeout and CORS by default', () => {
    expect(buildRenderOptions({}, 3)).toEqual({
      scale: 3,
      imageTimeout: CAPTURE_TIMEOUT_MS,
      logging: false,
      useCORS: true,
    })
    expect(CAPTURE_TIMEOUT_MS).toBe(15_000)
  })

  it('falls back to scale 1 without a usable pixel ratio', () => {
    expect(buildRenderOptions({}, 0).scale).toBe(1)
    expect(buildRenderOptions({}, Number.NaN).scale).toBe(1)
  })

  it('takes an explicit scale, timeout and background', () => {
    expect(buildRenderOptions({ scale: 2, timeoutMs: 5000, backgroundColor: null }, 3)).toEqual({
      scale: 2,
      imageTimeout: 5000,
      logging: false,
      useCORS: true,
      backgroundColor: null,
    })
  })

  it('sends images through the proxy instead of CORS when a proxy is given', () => {
    const options = buildRenderOptions({ proxyUrl: '/api/image-proxy' }, 2)
    expect(options.proxy).toBe('/api/image-proxy')
    // html2canvas skips the proxy for any image it may load with CORS.
    expect(options.useCORS).toBe(false)
  })
})

describe('withTimeout', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('rejects with a CaptureTimeoutError naming the limit', async () => {
    const never = new Promise<never>(() => {})
    const result = withTimeout(never, 15_000)
    vi.advanceTimersByTime(15_000)
    await expect(result).rejects.toThrow(CaptureTimeoutError)
    await expect(result).rejects.toThrow('Screenshot did not finish within 15000 ms')
  })

  it('passes a result through before the limit', async () => {
    const result = withTimeout(Promise.resolve('ok'), 10)
    await expect(result).resolves.toBe('ok')
  })

  it('turns a non-Error rejection (html2canvas rejects with strings) into an Error', async () => {
    await expect(withTimeout(Promise.reject('Invalid element'), 10)).rejects.toThrow(/Invalid element/)
  })
})

/** A canvas whose PNG encoding is a fixed blob (happy-dom does not draw). */
function fakeCanvas(blob: Blob | null = new Blob(['png'], { type: 'image/png' })): HTMLCanvasElement {
  const canvas = document.createElement('canvas')
  canvas.toBlob = (callback: BlobCallback) => callback(blob)
  return canvas
}

describe('captureElement', () => {
  let clicked: { download: string; href: string }[]
  let createObjectURL: ReturnType<typeof vi.spyOn>

  beforeEach(() => {
    clicked = []
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ download: this.download, href: this.href })
    })
    createObjectURL = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:http://localhost/png-1')
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {})
  })
  afterEach(() => {
    vi.restoreAllMocks()
    vi.useRealTimers()
    document.body.innerHTML = ''
  })

  it('renders with the options, downloads <timestamp>.png and toasts 截图已下载', async () => {
    const el = document.createElement('div')
    document.body.appendChild(el)
    const render = vi.fn<Renderer>(async () => fakeCanvas())
    const toast = vi.fn<(r: ToastRequest) => void>()
    const name = await captureElement(el, {
      render,
      toast,
      now: () => 1_763_800_000_123,
      scale: 2,
      proxyUrl: '/api/image-proxy',
    })
    expect(name).toBe('1763800000123.png')
    expect(render).toHaveBeenCalledExactlyOnceWith(el, {
      scale: 2,
      imageTimeout: CAPTURE_TIMEOUT_MS,
      logging: false,
      useCORS: false,
      proxy: '/api/image-proxy',
    })
    const png = createObjectURL.mock.calls[0]?.[0]
    expect(png).toBeInstanceOf(Blob)
    expect(clicked).toEqual([{ download: '1763800000123.png', href: 'blob:http://localhost/png-1' }])
    expect(document.querySelector('a')).toBeNull()
    expect(toast).toHaveBeenCalledExactlyOnceWith({ icon: 'success', content: '截图已下载', duration: 2000 })
  })

  it('uses the window device pixel ratio when no scale is given', async () => {
    Object.defineProperty(window, 'devicePixelRatio', { configurable: true, value: 3 })
    const el = document.createElement('div')
    const render = vi.fn<Renderer>(async () => fakeCanvas())
    await renderToPng(el, { render })
    expect(render.mock.calls[0]?.[1].scale).toBe(3)
    Reflect.deleteProperty(window, 'devicePixelRatio')
  })

  it('rejects after the capture timeout without downloading or toasting', async () => {
    vi.useFakeTimers()
    const el = document.createElement('div')
    const toast = vi.fn<(r: ToastRequest) => void>()
    const result = captureElement(el, { render: () => new Promise(() => {}), toast })
    const settled = expect(result).rejects.toBeInstanceOf(CaptureTimeoutError)
    await vi.advanceTimersByTimeAsync(CAPTURE_TIMEOUT_MS)
    await settled
    expect(clicked).toEqual([])
    expect(toast).not.toHaveBeenCalled()
  })

  it('rejects when the canvas cannot be encoded', async () => {
    const el = document.createElement('div')
    const toast = vi.fn<(r: ToastRequest) => void>()
    await expect(captureElement(el, { render: async () => fakeCanvas(null), toast })).rejects.toThrow(
      'could not be encoded as PNG',
    )
    expect(toast).not.toHaveBeenCalled()
  })
})
