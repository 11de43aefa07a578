// @vitest-environment happy-dom
import { PASSWORD_MISMATCH, PAY_PASSWORD_MISMATCH } from '@client/lib/form-rules'
import { act, cleanup, render } from '@testing-library/react'
import Form, { type FormInstance } from 'antd-mobile/es/components/form'
import Input from 'antd-mobile/es/components/input'
import { afterEach, describe, expect, it } from 'vitest'
import { ConfirmItem } from './confirm-item'

afterEach(cleanup)

/** A form with a password and its repeat; `held.form` is the form, to set values and validate. */
function PasswordForm({ digits, held }: { digits: boolean; held: { form?: FormInstance } }) {
  const [form] = Form.useForm()
  held.form = form
  return (
    <Form form={form}>
      <Form.Item name="password">
        <Input />
      </Form.Item>
      <ConfirmItem
        name="confirm"
        of="password"
        placeholder="再次输入"
        required="请再次输入"
        digits={digits}
      />
    </Form>
  )
}

function renderForm(digits: boolean): FormInstance {
  const held: { form?: FormInstance } = {}
  render(<PasswordForm digits={digits} held={held} />)
  if (!held.form) throw new Error('no form')
  return held.form
}

async function problemsOf(form: FormInstance, password: string, confirm: string): Promise<string[]> {
  form.setFieldsValue({ password, confirm })
  let errors: string[] = []
  await act(async () => {
    errors = await form.validateFields().then(
      () => [],
      (e: { errorFields: { errors: string[] }[] }) => e.errorFields.flatMap((f) => f.errors),
    )
  })
  return errors
}

describe('ConfirmItem', () => {
  it('takes the same password, and refuses another or none with its message', async () => {
    const form = renderForm(false)
    expect(await problemsOf(form, 'abc12345', 'abc12345')).toEqual([])
    expect(await problemsOf(form, 'abc12345', 'abc1234')).toEqual([PASSWORD_MISMATCH])
    expect(await problemsOf(form, 'abc12345', '')).toEqual(['请再次输入'])
  })

  it('words a payment password that differs as one', async () => {
    const form = renderForm(true)
    expect(await problemsOf(form, '123456', '123457')).toEqual([PAY_PASSWORD_MISMATCH])
  })
})
