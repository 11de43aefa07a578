// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { SmsCodeButton } from './sms-code-button'

beforeEach(() => vi.useFakeTimers())
afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

describe('SmsCodeButton', () => {
  it('counts down from the resend delay the server gave, then offers a resend', async () => {
    let sends = 0
    render(
      <SmsCodeButton
        onSend={async () => {
          sends += 1
          return 3
        }}
      />,
    )
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '获取验证码' }))
    })
    expect(sends).toBe(1)
    const button = screen.getByRole('button')
    expect(button.textContent).toBe('3秒后重发')
    expect(button).toHaveProperty('disabled', true)
    await act(async () => {
      vi.advanceTimersByTime(1000)
    })
    expect(button.textContent).toBe('2秒后重发')
    // One second at a time: each tick schedules the next once React has re-rendered.
    for (const expected of ['1秒后重发', '重新发送']) {
      await act(async () => {
        vi.advanceTimersByTime(1000)
      })
      expect(button.textContent).toBe(expected)
    }
    expect(button).toHaveProperty('disabled', false)
  })

  it('stays ready when sending fails', async () => {
    render(<SmsCodeButton onSend={() => Promise.reject(new Error('phone missing'))} />)
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '获取验证码' }))
    })
    expect(screen.getByRole('button').textContent).toBe('获取验证码')
    expect(screen.getByRole('button')).toHaveProperty('disabled', false)
  })
})
