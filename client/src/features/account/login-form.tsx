import { SubmitForm } from '@client/components/submit-form/submit-form'
import { paths } from '@client/config/paths'
import { requiredRule, schemaRule } from '@client/lib/form-rules'
import { logIn } from '@client/lib/session-actions'
import { useBusy } from '@client/lib/use-busy'
import { phoneField } from '@shared/contract/fields'
import Form from 'antd-mobile/es/components/form'
import Input from 'antd-mobile/es/components/input'
import { useEffect, useState } from 'react'
import { Link } from 'react-router-dom'
import { resetAvailable } from './password-reset-support'

interface LoginValues {
  phone: string
  password: string
}

export function LoginForm({ onDone }: { onDone: () => void }) {
  const [busy, run] = useBusy()
  // 忘记密码 is shown unless the server turns out not to answer password recovery.
  const [canReset, setCanReset] = useState(true)
  useEffect(() => {
    let live = true
    resetAvailable().then((yes) => live && setCanReset(yes))
    return () => {
      live = false
    }
  }, [])

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
      {canReset && (
        <div className="login-form__forgot">
          <Link to={paths.forgotPassword}>忘记密码？</Link>
        </div>
      )}
    </SubmitForm>
  )
}
