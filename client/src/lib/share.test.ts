import { describe, expect, it, vi } from 'vitest'
import { share } from './share'

const CONTENT = { title: '哈希游戏', text: '邀请码 DEMO88', url: 'https://example.com/?invite_code=DEMO88' }

describe('share', () => {
  it('uses the system share sheet where the browser has it', async () => {
    const nav = { share: vi.fn(async () => undefined) }
    const fallback = vi.fn()
    await share(CONTENT, fallback, nav)
    expect(nav.share).toHaveBeenCalledWith(CONTENT)
    expect(fallback).not.toHaveBeenCalled()
  })

  it('does nothing more when the player closes the sheet', async () => {
    const nav = { share: vi.fn(async () => Promise.reject(new DOMException('closed', 'AbortError'))) }
    const fallback = vi.fn()
    await share(CONTENT, fallback, nav)
    expect(fallback).not.toHaveBeenCalled()
  })

  it('falls back without the sheet, when the content cannot be shared, or when the sheet is refused', async () => {
    const fallback = vi.fn()
    await share(CONTENT, fallback, {})
    await share(CONTENT, fallback, undefined)
    await share(CONTENT, fallback, { share: vi.fn(async () => undefined), canShare: () => false })
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    await share(CONTENT, fallback, {
      share: vi.fn(async () => Promise.reject(new DOMException('no', 'NotAllowedError'))),
    })
    warn.mockRestore()
    expect(fallback).toHaveBeenCalledTimes(4)
  })
})
