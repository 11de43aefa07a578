// @vitest-environment happy-dom
import Toast from 'antd-mobile/es/components/toast'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { MSG } from '../../../shared/messages'
import { clearToast, holdLoadingToast, showToast } from './toast'

afterEach(() => clearToast())

const bodyText = () => document.body.textContent ?? ''

describe('antd-mobile under React 19', () => {
  it('Toast.show renders its content (the React 19 renderer is registered)', async () => {
    Toast.show({ content: '你好' })
    await vi.waitFor(() => expect(bodyText()).toContain('你好'))
  })
})

describe('toast helpers', () => {
  it('keeps the loading toast until every holder releases it', async () => {
    const a = holdLoadingToast()
    const b = holdLoadingToast()
    await vi.waitFor(() => expect(bodyText()).toContain(MSG.loading))
    a()
    a()
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(bodyText()).toContain(MSG.loading)
    b()
    await vi.waitFor(() => expect(bodyText()).not.toContain(MSG.loading))
  })

  it('never closes a message that replaced the loading toast', async () => {
    const release = holdLoadingToast()
    showToast(MSG.network)
    release()
    await vi.waitFor(() => expect(bodyText()).toContain(MSG.network))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(bodyText()).toContain(MSG.network)
  })
})
