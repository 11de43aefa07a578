// @vitest-environment happy-dom

import { TOAST_DURATION_MS } from '@shared/constants'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { untilShown } from '../test-support/until'
import { copyText, copyWithTextarea, type ToastRequest } from './copy'
import { clearToast } from './toast'

const SUCCESS: ToastRequest = { icon: 'success', content: '复制成功', duration: 2000 }
const FAIL: ToastRequest = { icon: 'fail', content: '复制失败', duration: 2000 }

/** What execCommand('copy') saw: the selected text of the focused textarea. */
let copiedByCommand: string[] = []
let commandResult: boolean | 'throw' = true

beforeEach(() => {
  copiedByCommand = []
  commandResult = true
  Object.defineProperty(document, 'execCommand', {
    configurable: true,
    value: (command: string) => {
      if (command !== 'copy') return false
      if (commandResult === 'throw') throw new Error('not allowed')
      const el = document.activeElement
      if (el instanceof HTMLTextAreaElement) {
        copiedByCommand.push(el.value.slice(el.selectionStart, el.selectionEnd))
      }
      return commandResult
    },
  })
})
afterEach(() => {
  Reflect.deleteProperty(document, 'execCommand')
  document.body.innerHTML = ''
})

describe('copyText', () => {
  it('uses the Clipboard API and toasts 复制成功 for 2000 ms', async () => {
    const writeText = vi.fn(async (_: string) => {})
    const toast = vi.fn<(r: ToastRequest) => void>()
    await expect(copyText('TXabc', { clipboard: { writeText }, toast })).resolves.toBe(true)
    expect(writeText).toHaveBeenCalledWith('TXabc')
    expect(copiedByCommand).toEqual([])
    expect(toast).toHaveBeenCalledExactlyOnceWith(SUCCESS)
    expect(TOAST_DURATION_MS).toBe(2000)
  })

  it('falls back to the textarea when the Clipboard API is missing', async () => {
    const toast = vi.fn<(r: ToastRequest) => void>()
    await expect(copyText('邀请码 8x9Y', { clipboard: undefined, toast })).resolves.toBe(true)
    expect(copiedByCommand).toEqual(['邀请码 8x9Y'])
    expect(toast).toHaveBeenCalledExactlyOnceWith(SUCCESS)
  })

  it('falls back to the textarea when the Clipboard API refuses', async () => {
    const writeText = vi.fn(async () => {
      throw new DOMException('denied', 'NotAllowedError')
    })
    const toast = vi.fn<(r: ToastRequest) => void>()
    await expect(copyText('abc', { clipboard: { writeText }, toast })).resolves.toBe(true)
    expect(copiedByCommand).toEqual(['abc'])
    expect(toast).toHaveBeenCalledExactlyOnceWith(SUCCESS)
  })

  it('toasts 复制失败 for 2000 ms when both ways fail', async () => {
    commandResult = false
    const writeText = vi.fn(async () => Promise.reject(new Error('no')))
    const toast = vi.fn<(r: ToastRequest) => void>()
    await expect(copyText('abc', { clipboard: { writeText }, toast })).resolves.toBe(false)
    expect(toast).toHaveBeenCalledExactlyOnceWith(FAIL)
  })

  it('toasts 复制失败 when execCommand throws', async () => {
    commandResult = 'throw'
    const toast = vi.fn<(r: ToastRequest) => void>()
    await expect(copyText('abc', { clipboard: undefined, toast })).resolves.toBe(false)
    expect(toast).toHaveBeenCalledExactlyOnceWith(FAIL)
    expect(document.querySelector('textarea')).toBeNull()
  })
})

// The first toast mounts antd-mobile's portal, which can take over a second on a busy machine:
// the tests wait for the text to appear, with no deadline of their own.

describe("copyText with the app's toast", () => {
  afterEach(() => clearToast())

  it('shows 复制成功 through antd-mobile', async () => {
    await copyText('abc', { clipboard: { writeText: async () => {} } })
    await untilShown('复制成功')
  })

  it('shows 复制失败 through antd-mobile', async () => {
    commandResult = false
    await copyText('abc', { clipboard: undefined })
    await untilShown('复制失败')
  })
})

describe('copyWithTextarea', () => {
  it('leaves no element behind and keeps the textarea read-only and fixed (no keyboard, no scroll)', () => {
    let seen: HTMLTextAreaElement | null = null
    const observer = vi.fn(() => {
      seen = document.querySelector('textarea')
      return true
    })
    Object.defineProperty(document, 'execCommand', { configurable: true, value: observer })
    expect(copyWithTextarea('x', document)).toBe(true)
    expect(seen).not.toBeNull()
    const area = seen as unknown as HTMLTextAreaElement
    expect(area.hasAttribute('readonly')).toBe(true)
    expect(area.style.position).toBe('fixed')
    expect(area.style.fontSize).toBe('16px')
    expect(document.querySelector('textarea')).toBeNull()
  })

  it('gives focus back to the element that had it', () => {
    const input = document.createElement('input')
    document.body.appendChild(input)
    input.focus()
    expect(copyWithTextarea('x', document)).toBe(true)
    expect(document.activeElement).toBe(input)
  })

  it("restores the user's text selection", () => {
    const p = document.createElement('p')
    p.textContent = 'hello world'
    document.body.appendChild(p)
    const range = document.createRange()
    const textNode = p.firstChild
    if (!textNode) throw new Error('no text node')
    range.setStart(textNode, 0)
    range.setEnd(textNode, 5)
    const selection = document.getSelection()
    selection?.removeAllRanges()
    selection?.addRange(range)
    expect(copyWithTextarea('x', document)).toBe(true)
    expect(document.getSelection()?.toString()).toBe('hello')
  })
})
