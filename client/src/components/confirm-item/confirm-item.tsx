import { PAY_PASSWORD_MISMATCH, requiredRule, sameAsRule } from '@client/lib/form-rules'
import Form from 'antd-mobile/es/components/form'
import Input from 'antd-mobile/es/components/input'

export interface ConfirmItemProps {
  /** The field's name (`confirm`). */
  name: string
  /** The field it must repeat (`password`, `new_password`, `pay_password`). */
  of: string
  label?: string
  placeholder: string
  /** What the empty field says. */
  required: string
  /** What a different value says (by default PASSWORD_MISMATCH, or PAY_PASSWORD_MISMATCH with `digits`). */
  mismatch?: string
  /** A payment password: six digits. */
  digits?: boolean
}

/**
 * The one "type it again" field of every password form built on antd-mobile's Form: required, and
 * the same as `of` (lib/form-rules.ts `sameAsRule`, the one confirm-password rule).
 */
export function ConfirmItem({
  name,
  of,
  label = '确认密码',
  placeholder,
  required,
  mismatch,
  digits,
}: ConfirmItemProps) {
  return (
    <Form.Item
      name={name}
      label={label}
      dependencies={[of]}
      rules={[
        requiredRule(required),
        sameAsRule(of, mismatch ?? (digits ? PAY_PASSWORD_MISMATCH : undefined)),
      ]}
    >
      <Input
        type="password"
        autoComplete="new-password"
        placeholder={placeholder}
        clearable
        {...(digits ? { inputMode: 'numeric' as const, maxLength: 6 } : {})}
      />
    </Form.Item>
  )
}
