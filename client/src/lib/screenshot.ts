import { CAPTURE_TIMEOUT_MS, TOAST_DURATION_MS } from '@shared/constants'
import { MSG } from '@shared/messages'
import type { Options as Html2CanvasOptions } from 'html2canvas-pro'
import { appToast, type ToastFn } from './copy'

/** Renders an element to a canvas; html2canvas-pro's signature. */
export type Renderer = (el: HTMLElement, options: Partial<Html2CanvasOptions>) => Promise<HTMLCanvasElement>

export interface CaptureOptions {
  /** Canvas pixels per CSS pixel; the device pixel ratio by default. */
  scale?: number
  /**
   * Where cross-origin images are fetched from: the server's image proxy, `IMAGE_PROXY_PATH` of
   * shared/contract/content.ts (html2canvas adds `?url=…&responseType=…`, docs/product.md#calls). Without it,
   * such images are requested with CORS and left out if their host does not allow it.
   */
  proxyUrl?: string
  /** Gives up after this long; CAPTURE_TIMEOUT_MS (15000 ms) by default. */
  timeoutMs?: number
  /** Page background by default; `null` for transparent. */
  backgroundColor?: string | null
  /** Replaces html2canvas-pro, which is otherwise loaded on first use (tests, other renderers). */
  render?: Renderer
  /** The clock the file is named by. */
  now?: () => number
  toast?: ToastFn
}

export class CaptureTimeoutError extends Error {
  override name = 'CaptureTimeoutError'
  constructor(readonly timeoutMs: number) {
    super(`Screenshot did not finish within ${timeoutMs} ms`)
  }
}

/** `<milliseconds since the epoch>.png`: unique per capture, sortable, free of time-zone questions. */
export function screenshotFileName(timestamp: number): string {
  return `${Math.trunc(timestamp)}.png`
}

/** html2canvas options: scale, proxy or CORS, and a per-image timeout no longer than the whole capture. */
export function buildRenderOptions(
  opts: Pick<CaptureOptions, 'scale' | 'proxyUrl' | 'timeoutMs' | 'backgroundColor'>,
  devicePixelRatio: number,
): Partial<Html2CanvasOptions> {
  const timeoutMs = opts.timeoutMs ?? CAPTURE_TIMEOUT_MS
  const scale = opts.scale ?? (devicePixelRatio > 0 ? devicePixelRatio : 1)
  const options: Partial<Html2CanvasOptions> = {
    scale,
    imageTimeout: timeoutMs,
    logging: false,
    // html2canvas only uses the proxy for images it would not load with CORS.
    useCORS: opts.proxyUrl === undefined,
  }
  if (opts.proxyUrl !== undefined) options.proxy = opts.proxyUrl
  if (opts.backgroundColor !== undefined) options.backgroundColor = opts.backgroundColor
  return options
}

/** Rejects with CaptureTimeoutError when `work` takes longer than `ms`. */
export function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new CaptureTimeoutError(ms)), ms)
    work.then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      (err: unknown) => {
        clearTimeout(timer)
        reject(err instanceof Error ? err : new Error(String(err)))
      },
    )
  })
}

/** Loaded on first use so that html2canvas-pro stays out of the initial bundle. */
const loadHtml2Canvas: Renderer = async (el, options) => {
  const { default: html2canvas } = await import('html2canvas-pro')
  return html2canvas(el, options)
}

function canvasToPng(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => {
      if (blob) resolve(blob)
      else reject(new Error('Screenshot could not be encoded as PNG'))
    }, 'image/png')
  })
}

/** Renders `el` to a PNG blob (no download). */
export async function renderToPng(el: HTMLElement, opts: CaptureOptions = {}): Promise<Blob> {
  const timeoutMs = opts.timeoutMs ?? CAPTURE_TIMEOUT_MS
  const render = opts.render ?? loadHtml2Canvas
  const options = buildRenderOptions(opts, el.ownerDocument.defaultView?.devicePixelRatio ?? 1)
  return withTimeout(
    render(el, options).then((canvas) => canvasToPng(canvas)),
    timeoutMs,
  )
}

// Long enough for a slow browser to start reading the blob before its URL goes away.
const REVOKE_URL_AFTER_MS = 30_000

export function downloadBlob(blob: Blob, fileName: string, doc: Document = document): void {
  const url = URL.createObjectURL(blob)
  const link = doc.createElement('a')
  link.href = url
  link.download = fileName
  link.rel = 'noopener'
  link.style.display = 'none'
  doc.body.appendChild(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_URL_AFTER_MS)
}

/**
 * Renders `el` to a PNG, downloads it as `<timestamp>.png` (the moment the capture started) and toasts 截图已下载 (docs/product.md#pages).
 * Rejects with CaptureTimeoutError after `timeoutMs`, or with the renderer's error; nothing is
 * downloaded or toasted then, and the caller decides what to tell the user. Resolves to the file name.
 */
export async function captureElement(el: HTMLElement, opts: CaptureOptions = {}): Promise<string> {
  const fileName = screenshotFileName((opts.now ?? Date.now)())
  const png = await renderToPng(el, opts)
  downloadBlob(png, fileName, el.ownerDocument)
  ;(opts.toast ?? appToast)({ icon: 'success', content: MSG.screenshotSaved, duration: TOAST_DURATION_MS })
  return fileName
}
