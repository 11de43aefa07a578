import { requiredRule, schemaRule } from '@client/lib/form-rules'
import { logIn } from '@client/lib/session-actions'
import { useBusy } from '@client/lib/use-busy'
import { phoneField } from '@shared/contract/fields'
import Button from 'antd-mobile/es/components/button'
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
    <Form
      layout="horizontal"
      mode="card"
      onFinish={submit}
      footer={
        <Button block type="submit" color="primary" size="large" loading={busy}>
          登录
        </Button>
      }
    >
      <Form.Item name="phone" label="手机号" rules={[requiredRule('请输入手机号'), schemaRule(phoneField)]}>
        <Input type="tel" inputMode="tel" autoComplete="username" placeholder="请输入手机号" clearable />
      </Form.Item>
      <Form.Item name="password" label="密码" rules={[requiredRule('请输入密码')]}>
        <Input type="password" autoComplete="current-password" placeholder="请输入密码" clearable />
      </Form.Item>
    </Form>
  )
}
