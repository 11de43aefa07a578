import { ConfirmItem } from '@client/components/confirm-item/confirm-item'
import { SmsCodeItem } from '@client/components/sms-code-button/sms-code-button'
import { SubmitForm } from '@client/components/submit-form/submit-form'
import { INVITE_QUERY } from '@client/config/paths'
import { requiredRule, schemaRule } from '@client/lib/form-rules'
import { callApi } from '@client/lib/http'
import { logIn } from '@client/lib/session-actions'
import { showToast } from '@client/lib/toast'
import { useBusy } from '@client/lib/use-busy'
import { register, sendSms } from '@shared/contract/account'
import { newPasswordField, PASSWORD_MSG, phoneField } from '@shared/contract/fields'
import Form from 'antd-mobile/es/components/form'
import Input from 'antd-mobile/es/components/input'
import { useSearchParams } from 'react-router-dom'

interface RegisterValues {
  phone: string
  code: string
  password: string
  confirm: string
  invite_code?: string
}

/** The invite code an invite link carries (`?invite_code=`), tidied as the form sends it. */
export function inviteCodeFrom(params: URLSearchParams): string {
  return params.get(INVITE_QUERY)?.trim().toUpperCase() ?? ''
}

/** Register with an SMS code, then log straight in. An invite link's code fills the invite code. */
export function RegisterForm({ onDone }: { onDone: () => void }) {
  const [form] = Form.useForm<RegisterValues>()
  const [params] = useSearchParams()
  const [busy, run] = useBusy()

  const sendCode = async () => {
    const { phone } = await form.validateFields(['phone'])
    const data = await callApi(sendSms, { body: { phone: phone.trim(), purpose: 'register' } })
    showToast('验证码已发送', 'success')
    return data.resend_in
  }

  const submit = (values: RegisterValues) =>
    run(async () => {
      const phone = values.phone.trim()
      const invite = values.invite_code?.trim().toUpperCase()
      await callApi(register, {
        body: {
          phone,
          code: values.code,
          password: values.password,
          ...(invite ? { invite_code: invite } : {}),
        },
      })
      await logIn({ phone, password: values.password })
      showToast('注册成功', 'success')
      onDone()
    })

  return (
    <SubmitForm
      form={form}
      initialValues={{ invite_code: inviteCodeFrom(params) }}
      onFinish={submit}
      submitText="注册"
      busy={busy}
    >
      <Form.Item name="phone" label="手机号" rules={[requiredRule('请输入手机号'), schemaRule(phoneField)]}>
        <Input type="tel" inputMode="tel" autoComplete="tel" placeholder="请输入手机号" clearable />
      </Form.Item>
      <SmsCodeItem onSend={sendCode} />
      <Form.Item
        name="password"
        label="密码"
        rules={[requiredRule('请输入密码'), schemaRule(newPasswordField)]}
        help={PASSWORD_MSG.help}
      >
        <Input type="password" autoComplete="new-password" placeholder="请设置登录密码" clearable />
      </Form.Item>
      <ConfirmItem name="confirm" of="password" placeholder="请再次输入密码" required="请再次输入密码" />
      <Form.Item name="invite_code" label="邀请码">
        <Input autoComplete="off" placeholder="选填" clearable />
      </Form.Item>
    </SubmitForm>
  )
}
