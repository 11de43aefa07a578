import { ConfirmItem } from '@client/components/confirm-item/confirm-item'
import { PageShell } from '@client/components/page-shell/page-shell'
import { SmsCodeItem } from '@client/components/sms-code-button/sms-code-button'
import { SubmitForm } from '@client/components/submit-form/submit-form'
import { paths } from '@client/config/paths'
import { isEndpointMissing } from '@client/lib/endpoint-status'
import { requiredRule, schemaRule } from '@client/lib/form-rules'
import { callApi } from '@client/lib/http'
import { logIn } from '@client/lib/session-actions'
import { showToast } from '@client/lib/toast'
import { useBusy } from '@client/lib/use-busy'
import { resetPassword, sendSms } from '@shared/contract/account'
import { newPasswordField, PASSWORD_MSG, phoneField } from '@shared/contract/fields'
import Form from 'antd-mobile/es/components/form'
import Input from 'antd-mobile/es/components/input'
import { useState } from 'react'
import { Link, useNavigate } from 'react-router-dom'
import { markResetMissing } from './password-reset-support'
import './login-page.css'

interface ResetValues {
  phone: string
  code: string
  new_password: string
  confirm: string
}

/**
 * 忘记密码: a new login password with an SMS code sent to the account's phone. Every session of the
 * player ends on the server; this device then logs in with the new password.
 */
export function ForgotPasswordPage() {
  const [form] = Form.useForm<ResetValues>()
  const navigate = useNavigate()
  const [busy, run] = useBusy()
  const [missing, setMissing] = useState(false)

  const onMissing = (err: unknown) => {
    if (isEndpointMissing(err)) {
      markResetMissing()
      setMissing(true)
    }
    throw err
  }

  const sendCode = async () => {
    const { phone } = await form.validateFields(['phone'])
    const data = await callApi(sendSms, { body: { phone: phone.trim(), purpose: 'reset_password' } }).catch(
      onMissing,
    )
    showToast('验证码已发送', 'success')
    return data.resend_in
  }

  const submit = (values: ResetValues) =>
    run(async () => {
      const phone = values.phone.trim()
      await callApi(resetPassword, {
        body: { phone, code: values.code, new_password: values.new_password },
      }).catch(onMissing)
      showToast('密码已重置，其他设备已退出登录', 'success')
      await logIn({ phone, password: values.new_password })
      navigate(paths.home, { replace: true })
    })

  return (
    <PageShell title="忘记密码" fallback={paths.login}>
      <div className="login-page">
        {missing ? (
          <p className="login-page__hint" data-testid="reset-missing">
            暂不支持在线找回密码，请<Link to={paths.service}>联系在线客服</Link>。
          </p>
        ) : (
          <>
            <p className="login-page__hint">
              验证码将发送到注册时的手机号。重置后，所有设备上的登录都会失效。
            </p>
            <SubmitForm form={form} onFinish={submit} submitText="重置密码" busy={busy}>
              <Form.Item
                name="phone"
                label="手机号"
                rules={[requiredRule('请输入手机号'), schemaRule(phoneField)]}
              >
                <Input
                  type="tel"
                  inputMode="tel"
                  autoComplete="username"
                  placeholder="请输入注册手机号"
                  clearable
                />
              </Form.Item>
              <SmsCodeItem onSend={sendCode} />
              <Form.Item
                name="new_password"
                label="新密码"
                rules={[requiredRule('请输入新密码'), schemaRule(newPasswordField)]}
                help={PASSWORD_MSG.help}
              >
                <Input
                  type="password"
                  autoComplete="new-password"
                  placeholder="请设置新的登录密码"
                  clearable
                />
              </Form.Item>
              <ConfirmItem
                name="confirm"
                of="new_password"
                placeholder="请再次输入新密码"
                required="请再次输入新密码"
              />
            </SubmitForm>
          </>
        )}
      </div>
    </PageShell>
  )
}
