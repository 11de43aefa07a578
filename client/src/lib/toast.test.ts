// @vitest-environment happy-dom

import { MSG } from '@shared/messages'
import Toast from 'antd-mobile/es/components/toast'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { untilGone, untilShown } from '../test-support/until'
import { clearToast, holdLoadingToast, showToast } from './toast'

afterEach(() => clearToast())

const bodyText = () => document.body.textContent ?? ''

/** Lets every callback waiting on the (already loaded) Toast module run. */
const settle = () => new Promise((resolve) => setImmediate(resolve))

describe('antd-mobile under React 19', () => {
  it('Toast.show renders its content (the React 19 renderer is registered)', async () => {
    Toast.show({ content: '你好' })
    await untilShown('你好')
  })
})

describe('toast helpers', () => {
  it('keeps the loading toast until every holder releases it', async () => {
    const a = holdLoadingToast()
    const b = holdLoadingToast()
    await untilShown(MSG.loading)
    const cleared = vi.spyOn(Toast, 'clear')
    a()
    a()
    await settle()
    expect(cleared).not.toHaveBeenCalled()
    cleared.mockRestore()
    b()
    await untilGone(MSG.loading)
  })

  it('never closes a message that replaced the loading toast', async () => {
    const cleared = vi.spyOn(Toast, 'clear')
    const release = holdLoadingToast()
    showToast(MSG.network)
    release()
    await untilShown(MSG.network)
    await settle()
    expect(cleared).not.toHaveBeenCalled()
    cleared.mockRestore()
    expect(bodyText()).toContain(MSG.network)
  })
})
