// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import Form, { type FormInstance } from 'antd-mobile/es/components/form'
import { useState } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { AmountInput, type AmountInputProps } from './amount-input'

afterEach(cleanup)

/** The field as a page holds it: the value in state, every change kept. */
function Field(props: Omit<AmountInputProps, 'value' | 'onChange' | 'label' | 'unit'>) {
  const [value, setValue] = useState('')
  return <AmountInput {...props} label="金额" unit="USDT" value={value} onChange={setValue} />
}

/** The field inside an antd-mobile Form, as the withdrawal during a time-out holds it. */
function InForm({ held }: { held: { form?: FormInstance } }) {
  const [form] = Form.useForm()
  held.form = form
  return (
    <Form form={form}>
      <Form.Item name="amount">
        <AmountInput label="金额" unit="USDT" />
      </Form.Item>
    </Form>
  )
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

  it('keeps only as many decimals as asked', () => {
    render(<Field places={2} />)
    fireEvent.change(field(), { target: { value: '2.555' } })
    expect(field().value).toBe('2.55')
  })

  it('takes its value from an antd-mobile Form.Item and hands the kept text back to the form', () => {
    const held: { form?: FormInstance } = {}
    render(<InForm held={held} />)
    fireEvent.change(field(), { target: { value: '1a2.5' } })
    expect(held.form?.getFieldValue('amount')).toBe('12.5')
    act(() => held.form?.setFieldsValue({ amount: '30' }))
    expect(field().value).toBe('30')
  })
})
