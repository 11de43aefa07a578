import type { z } from 'zod'

/**
 * antd-mobile Form rules from the contract's own field schemas, so a form checks exactly what the
 * server will: one definition of each rule.
 */
export interface FormRule {
  required?: boolean
  message?: string
  validator?: (rule: unknown, value: unknown) => Promise<void>
}

export function requiredRule(message: string): FormRule {
  return { required: true, message }
}

export function schemaRule(schema: z.ZodType): FormRule {
  return {
    validator: async (_rule, value) => {
      if (value === undefined || value === null || value === '') return
      const parsed = schema.safeParse(value)
      if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? '格式不正确')
    },
  }
}

export const PASSWORD_MISMATCH = '两次输入的密码不一致'
export const PAY_PASSWORD_MISMATCH = '两次输入的支付密码不一致'

/**
 * The one confirm-password rule of every form that asks for a password twice (register, reset,
 * login-password change, the payment password on its own page and during a time-out): what was
 * typed again must be exactly the original. The message when it is not, else null.
 */
export function repeatProblem(
  repeated: unknown,
  original: unknown,
  message = PASSWORD_MISMATCH,
): string | null {
  return repeated === original ? null : message
}

/**
 * repeatProblem as an antd-mobile Form rule of the field that repeats `other`. An empty field is
 * left to its required rule.
 */
export const sameAsRule =
  (other: string, message = PASSWORD_MISMATCH) =>
  ({ getFieldValue }: { getFieldValue: (name: string) => unknown }) => ({
    validator: async (_rule: unknown, value: unknown) => {
      const problem = value ? repeatProblem(value, getFieldValue(other), message) : null
      if (problem) throw new Error(problem)
    },
  })
