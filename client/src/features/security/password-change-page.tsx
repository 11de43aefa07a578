import { ConfirmItem } from '@client/components/confirm-item/confirm-item'
import { PageShell } from '@client/components/page-shell/page-shell'
import { RequireLogin } from '@client/components/require-login/require-login'
import { SubmitForm } from '@client/components/submit-form/submit-form'
import { paths } from '@client/config/paths'
import { requiredRule, schemaRule } from '@client/lib/form-rules'
import { callApi } from '@client/lib/http'
import { showToast } from '@client/lib/toast'
import { useBusy } from '@client/lib/use-busy'
import { changePassword } from '@shared/contract/account'
import { newPasswordField, PASSWORD_MSG } from '@shared/contract/fields'
import Form from 'antd-mobile/es/components/form'
import Input from 'antd-mobile/es/components/input'
import { useNavigate } from 'react-router-dom'
import './security.css'

interface PasswordValues {
  old_password: string
  new_password: string
  confirm: string
}

/** Login-password change. Other sessions end on the server; this one stays. */
export function PasswordChangePage() {
  const navigate = useNavigate()
  const [busy, run] = useBusy()

  const submit = (values: PasswordValues) =>
    run(async () => {
      await callApi(changePassword, {
        body: { old_password: values.old_password, new_password: values.new_password },
      })
      showToast('登录密码已修改', 'success')
      navigate(paths.securityCenter, { replace: true })
    })

  return (
    <PageShell title="修改登录密码" fallback={paths.securityCenter}>
      <RequireLogin>
        <SubmitForm onFinish={submit} submitText="确认修改" busy={busy}>
          <Form.Item name="old_password" label="原密码" rules={[requiredRule('请输入原密码')]}>
            <Input type="password" autoComplete="current-password" placeholder="请输入原密码" clearable />
          </Form.Item>
          <Form.Item
            name="new_password"
            label="新密码"
            help={PASSWORD_MSG.help}
            dependencies={['old_password']}
            rules={[
              requiredRule('请输入新密码'),
              schemaRule(newPasswordField),
              ({ getFieldValue }) => ({
                validator: async (_rule, value) => {
                  if (value && value === getFieldValue('old_password'))
                    throw new Error('新密码不能与原密码相同')
                },
              }),
            ]}
          >
            <Input type="password" autoComplete="new-password" placeholder="请输入新密码" clearable />
          </Form.Item>
          <ConfirmItem
            name="confirm"
            of="new_password"
            placeholder="请再次输入新密码"
            required="请再次输入新密码"
          />
        </SubmitForm>
      </RequireLogin>
    </PageShell>
  )
}
