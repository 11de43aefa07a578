import { PasscodeField } from '@client/components/passcode-field/passcode-field'
import { paths } from '@client/config/paths'
import { useBusy } from '@client/lib/use-busy'
import type { PasscodeInputRef } from 'antd-mobile/es/components/passcode-input'
import Popup from 'antd-mobile/es/components/popup'
import { type ReactNode, useRef, useState } from 'react'
import { Link } from 'react-router-dom'

const PAY_PASSWORD_LENGTH = 6

export interface PayPasswordSheetProps {
  visible: boolean
  title: string
  /** What the password confirms (amount, address…), shown above the cells. */
  summary?: ReactNode
  onClose: () => void
  /**
   * Called once all 6 digits are in. Resolves to null when done (the caller closes the sheet), or
   * to the message to show: the cells clear for another try.
   */
  onSubmit: (payPassword: string) => Promise<string | null>
}

/** The payment password in a bottom sheet: six cells and the number keyboard, submitted on the sixth digit. */
export function PayPasswordSheet({ visible, title, summary, onClose, onSubmit }: PayPasswordSheetProps) {
  const [value, setValue] = useState('')
  const [error, setError] = useState('')
  const [busy, run] = useBusy()
  const passcode = useRef<PasscodeInputRef>(null)

  const submit = (password: string) =>
    run(async () => {
      setError('')
      const problem = await onSubmit(password)
      if (problem !== null) {
        setError(problem)
        setValue('')
      }
    })

  return (
    <Popup
      visible={visible}
      onMaskClick={busy ? undefined : onClose}
      onClose={onClose}
      afterShow={() => passcode.current?.focus()}
      afterClose={() => {
        setValue('')
        setError('')
      }}
      destroyOnClose
      bodyClassName="wallet-sheet"
    >
      <div className="wallet-sheet__head">
        <h2 className="wallet-sheet__title">{title}</h2>
        <button type="button" className="wallet-sheet__close" onClick={onClose} disabled={busy}>
          取消
        </button>
      </div>
      {summary ? <div className="wallet-sheet__summary">{summary}</div> : null}
      <p className="wallet-sheet__label">请输入6位支付密码</p>
      <div className="wallet-sheet__cells">
        <PasscodeField
          ref={passcode}
          className="wallet-sheet__passcode"
          length={PAY_PASSWORD_LENGTH}
          value={value}
          onChange={(next) => {
            setValue(next)
            if (next) setError('')
          }}
          onFill={(filled) => void submit(filled)}
          error={Boolean(error)}
          aria-label="支付密码"
        />
      </div>
      {error ? (
        <p className="wallet-sheet__error" role="alert">
          {error}
        </p>
      ) : null}
      {busy ? <p className="wallet-sheet__hint">正在提交…</p> : null}
      <p className="wallet-sheet__hint">
        忘记支付密码？<Link to={paths.payPasswordChange}>去重置</Link>
      </p>
    </Popup>
  )
}
