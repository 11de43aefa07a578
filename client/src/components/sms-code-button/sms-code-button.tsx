import { requiredRule, schemaRule } from '@client/lib/form-rules'
import { useBusy } from '@client/lib/use-busy'
import { useCountdown } from '@client/lib/use-countdown'
import { smsCodeField } from '@shared/contract/fields'
import Form from 'antd-mobile/es/components/form'
import Input from 'antd-mobile/es/components/input'
import { useState } from 'react'
import './sms-code-button.css'

export interface SmsCodeButtonProps {
  /** Sends the code; resolves to the seconds before another may be sent. */
  onSend: () => Promise<number>
}

/** 获取验证码, then a countdown until a resend is allowed. */
export function SmsCodeButton({ onSend }: SmsCodeButtonProps) {
  const { remaining, start } = useCountdown()
  const [sending, run] = useBusy()
  const [sent, setSent] = useState(false)

  const send = () =>
    run(async () => {
      start(await onSend())
      setSent(true)
    })

  const label = remaining > 0 ? `${remaining}秒后重发` : sent ? '重新发送' : '获取验证码'
  return (
    <button type="button" className="sms-code-button" disabled={sending || remaining > 0} onClick={send}>
      {label}
    </button>
  )
}

/**
 * The SMS code field of a form: six digits, with the button that sends the code beside it. `onSend`
 * sends it and answers the seconds before another may be sent.
 */
export function SmsCodeItem({
  name = 'code',
  placeholder = '6位数字',
  onSend,
}: {
  name?: string
  placeholder?: string
  onSend: () => Promise<number>
}) {
  return (
    <Form.Item
      name={name}
      label="验证码"
      rules={[requiredRule('请输入验证码'), schemaRule(smsCodeField)]}
      extra={<SmsCodeButton onSend={onSend} />}
    >
      <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} placeholder={placeholder} />
    </Form.Item>
  )
}
