import NumberKeyboard from 'antd-mobile/es/components/number-keyboard'
import PasscodeInput, {
  type PasscodeInputProps,
  type PasscodeInputRef,
} from 'antd-mobile/es/components/passcode-input'
import { type Ref, useLayoutEffect, useRef } from 'react'
import './passcode-field.css'

/**
 * antd-mobile's PasscodeInput with its on-screen number keyboard: a button named by `aria-label`
 * that opens the keyboard, and cells that show how many digits are in. The library also renders a
 * hidden text input for the system keyboard, which is never used once it has a keyboard of its own;
 * that input is disabled here, so that no focusable element sits inside the button or hides from
 * assistive technology.
 */
export function PasscodeField({
  ref,
  ...props
}: Omit<PasscodeInputProps, 'keyboard'> & { 'aria-label': string; ref?: Ref<PasscodeInputRef> }) {
  const box = useRef<HTMLSpanElement>(null)
  useLayoutEffect(() => {
    const systemInput = box.current?.querySelector('input')
    if (systemInput) systemInput.disabled = true
  }, [])
  return (
    <span ref={box} className="passcode-field">
      <PasscodeInput ref={ref} {...props} keyboard={<NumberKeyboard />} />
    </span>
  )
}
