import { SubmitForm } from '@client/components/submit-form/submit-form'
import { requiredRule, schemaRule } from '@client/lib/form-rules'
import { logIn } from '@client/lib/session-actions'
import { useBusy } from '@client/lib/use-busy'
import { phoneField } from '@shared/contract/fields'
import Form from 'antd-mobile/es/components/form'
import Input from 'antd-mobile/es/components/input'

interface LoginValues {
  phone: string
  password: string
}

export function LoginForm({ onDone }: { onDone: () => void }) {
  const [busy, run] = useBusy()

  const submit = (values: LoginValues) =>
    run(async () => {
      await logIn({ phone: values.phone.trim(), password: values.password })
      onDone()
    })

  return (
    <SubmitForm onFinish={submit} submitText="登录" busy={busy}>
      <Form.Item name="phone" label="手机号" rules={[requiredRule('请输入手机号'), schemaRule(phoneField)]}>
        <Input type="tel" inputMode="tel" autoComplete="username" placeholder="请输入手机号" clearable />
      </Form.Item>
      <Form.Item name="password" label="密码" rules={[requiredRule('请输入密码')]}>
        <Input type="password" autoComplete="current-password" placeholder="请输入密码" clearable />
      </Form.Item>
    </SubmitForm>
  )
}
