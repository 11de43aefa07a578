// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { AmountInput, type AmountInputProps } from './amount-input'

afterEach(cleanup)

/** The field as a page holds it: the value in state, every change kept. */
function Field(props: Omit<AmountInputProps, 'value' | 'onChange' | 'label' | 'unit'>) {
  const [value, setValue] = useState('')
  return <AmountInput {...props} label="金额" unit="USDT" value={value} onChange={setValue} />
}

const field = () => screen.getByRole('textbox', { name: '金额' }) as HTMLInputElement

describe('AmountInput', () => {
  it('keeps digits and one point of what is typed', () => {
    render(<Field />)
    fireEvent.change(field(), { target: { value: '0012。3a4' } })
    expect(field().value).toBe('12.34')
  })

  it('fills in the whole amount on 全部, and disables 全部 while it is unknown', () => {
    const { rerender } = render(<Field all="99.50" />)
    fireEvent.click(screen.getByRole('button', { name: '全部' }))
    expect(field().value).toBe('99.50')
    rerender(<Field all={null} />)
    expect(screen.getByRole('button', { name: '全部' })).toHaveProperty('disabled', true)
  })

  it('offers quick amounts and marks the one in the field', () => {
    render(<Field quick={['50', '100']} />)
    expect(screen.queryByRole('button', { name: '全部' })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: '100' }))
    expect(field().value).toBe('100')
    expect(screen.getByRole('button', { name: '100' }).className).toContain('--on')
    expect(screen.getByRole('button', { name: '50' }).className).not.toContain('--on')
  })
})
