// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { PasscodeField } from './passcode-field'

afterEach(cleanup)

describe('PasscodeField', () => {
  it('is one named button with nothing focusable inside', () => {
    render(<PasscodeField length={6} value="12" aria-label="支付密码" />)
    const button = screen.getByRole('button', { name: '支付密码' })
    const inputs = button.querySelectorAll('input')
    expect(inputs).toHaveLength(1)
    expect(inputs[0]?.disabled).toBe(true)
    expect(button.querySelectorAll('.adm-passcode-input-cell-dot')).toHaveLength(2)
  })
})
