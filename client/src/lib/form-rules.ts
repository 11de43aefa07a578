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

/** The confirm-password field's rule: the same as the field `other` holds. */
export const sameAsRule =
  (other: string, message = '两次输入的密码不一致') =>
  ({ getFieldValue }: { getFieldValue: (name: string) => unknown }) => ({
    validator: async (_rule: unknown, value: unknown) => {
      if (value && value !== getFieldValue(other)) throw new Error(message)
    },
  })
