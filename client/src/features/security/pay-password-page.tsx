import { PageShell } from '@client/components/page-shell/page-shell'
import { PasscodeField } from '@client/components/passcode-field/passcode-field'
import { RequireLogin } from '@client/components/require-login/require-login'
import { SegmentedControl } from '@client/components/segmented-control/segmented-control'
import { SmsCodeButton } from '@client/components/sms-code-button/sms-code-button'
import { paths } from '@client/config/paths'
import { PAY_PASSWORD_MISMATCH, repeatProblem } from '@client/lib/form-rules'
import { callApi } from '@client/lib/http'
import { returnFrom } from '@client/lib/return-to'
import { session, useSession } from '@client/lib/session-store'
import { showToast } from '@client/lib/toast'
import { useBusy } from '@client/lib/use-busy'
import { sendSms, updatePaymentPassword, userInfo } from '@shared/contract/account'
import { payPasswordField, smsCodeField } from '@shared/contract/fields'
import Button from 'antd-mobile/es/components/button'
import Input from 'antd-mobile/es/components/input'
import { useState } from 'react'
import { useNavigate, useSearchParams } from 'react-router-dom'
import './security.css'

type Proof = 'password' | 'sms'

const PAY_PASSWORD_LENGTH = 6

/**
 * Set or change the 6-digit payment password: proven with the login password or an SMS code to
 * the player's own phone, then entered twice on the number keyboard.
 */
export function PayPasswordPage() {
  const navigate = useNavigate()
  const [params] = useSearchParams()
  const hasPayPassword = useSession((s) => s.userInfo?.has_pay_password ?? false)
  const [proof, setProof] = useState<Proof>('password')
  const [loginPassword, setLoginPassword] = useState('')
  const [smsCode, setSmsCode] = useState('')
  const [payPassword, setPayPassword] = useState('')
  const [confirm, setConfirm] = useState('')
  /** One passcode field at a time, so only one number keyboard is ever open. */
  const [stage, setStage] = useState<'enter' | 'confirm'>('enter')
  const [error, setError] = useState('')
  const [busy, run] = useBusy()

  const title = hasPayPassword ? '修改支付密码' : '设置支付密码'

  const sendCode = async () => {
    const data = await callApi(sendSms, { body: { purpose: 'pay_password' } })
    showToast('验证码已发送', 'success')
    return data.resend_in
  }

  const check = (): string => {
    if (proof === 'password' && !loginPassword) return '请输入登录密码'
    if (proof === 'sms' && !smsCodeField.safeParse(smsCode).success) return '请输入6位短信验证码'
    if (!payPasswordField.safeParse(payPassword).success) return '请输入6位数字支付密码'
    return repeatProblem(confirm, payPassword, PAY_PASSWORD_MISMATCH) ?? ''
  }

  const submit = async () => {
    const problem = check()
    setError(problem)
    if (problem) return
    await run(async () => {
      await callApi(updatePaymentPassword, {
        body:
          proof === 'password'
            ? { pay_password: payPassword, login_password: loginPassword }
            : { pay_password: payPassword, sms_code: smsCode },
      })
      showToast(hasPayPassword ? '支付密码已修改' : '支付密码已设置', 'success')
      const playerId = session.get().playerId
      if (playerId !== null) {
        const info = await callApi(userInfo, { query: { player_id: playerId } }).catch(() => null)
        if (info) session.confirmUserInfo(info)
      }
      // Back to the page that asked for it (提现), else the security centre.
      navigate(returnFrom(params) ?? paths.securityCenter, { replace: true })
    })
  }

  return (
    <PageShell title={title} fallback={paths.securityCenter}>
      <RequireLogin>
        <div className="security__panel">
          <SegmentedControl
            label="验证方式"
            value={proof}
            onChange={setProof}
            options={[
              { label: '登录密码验证', value: 'password' },
              { label: '短信验证', value: 'sms' },
            ]}
          />
          {proof === 'password' ? (
            <div className="security__field">
              <span className="security__label">登录密码</span>
              <Input
                type="password"
                autoComplete="current-password"
                placeholder="请输入登录密码"
                value={loginPassword}
                onChange={setLoginPassword}
                aria-label="登录密码"
              />
            </div>
          ) : (
            <div className="security__field">
              <span className="security__label">验证码</span>
              <Input
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
                placeholder="发送到您绑定的手机"
                value={smsCode}
                onChange={setSmsCode}
                aria-label="短信验证码"
              />
              <SmsCodeButton onSend={sendCode} />
            </div>
          )}

          {stage === 'enter' ? (
            <>
              <p className="security__label">{hasPayPassword ? '新支付密码' : '支付密码'}（6位数字）</p>
              <PasscodeField
                key="enter"
                className="security__passcode"
                length={PAY_PASSWORD_LENGTH}
                value={payPassword}
                onChange={setPayPassword}
                onFill={() => setStage('confirm')}
                aria-label="支付密码"
              />
            </>
          ) : (
            <>
              <p className="security__label">
                确认支付密码
                <button
                  type="button"
                  className="security__link"
                  onClick={() => {
                    setPayPassword('')
                    setConfirm('')
                    setStage('enter')
                  }}
                >
                  重新输入
                </button>
              </p>
              <PasscodeField
                key="confirm"
                className="security__passcode"
                length={PAY_PASSWORD_LENGTH}
                value={confirm}
                onChange={setConfirm}
                error={confirm.length === PAY_PASSWORD_LENGTH && confirm !== payPassword}
                aria-label="确认支付密码"
              />
            </>
          )}
          {error ? (
            <p className="security__error" role="alert">
              {error}
            </p>
          ) : null}
          <Button block color="primary" size="large" loading={busy} onClick={submit}>
            确认
          </Button>
        </div>
      </RequireLogin>
    </PageShell>
  )
}
