import Button from 'antd-mobile/es/components/button'
import Form, { type FormProps } from 'antd-mobile/es/components/form'

export interface SubmitFormProps extends Omit<FormProps, 'footer' | 'layout' | 'mode'> {
  /** What the submit button says. */
  submitText: string
  /** A submission is in flight (see useBusy): the button shows it and takes no tap. */
  busy: boolean
}

/** A card of labelled fields with one full-width submit button below it, as the app's forms look. */
export function SubmitForm({ submitText, busy, children, ...props }: SubmitFormProps) {
  return (
    <Form
      {...props}
      layout="horizontal"
      mode="card"
      footer={
        <Button block type="submit" color="primary" size="large" loading={busy}>
          {submitText}
        </Button>
      }
    >
      {children}
    </Form>
  )
}
