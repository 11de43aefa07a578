import { useBusy } from '@client/lib/use-busy'
import { useCountdown } from '@client/lib/use-countdown'
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
