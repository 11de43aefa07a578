import { z } from 'zod'
import { isAmountInRange } from '../money'

/** Request fields shared by several endpoints. Form and query values arrive as text. */

const numeric = (error: string) =>
  z
    // Text first: query and form values always arrive as text, so the common case matches at once.
    .union([
      z
        .string()
        .trim()
        .regex(/^-?\d+$/, { error }),
      z.number(),
    ])
    .transform(Number)

export const idParam = numeric('必须是正整数').pipe(
  z
    .number()
    .int({ error: '必须是正整数' })
    .positive({ error: '必须是正整数' })
    .max(Number.MAX_SAFE_INTEGER, { error: '超出范围' }),
)

export const intParam = (min: number, max: number) =>
  numeric('必须是整数').pipe(
    z
      .number()
      .int({ error: '必须是整数' })
      .min(min, { error: `不能小于 ${min}` })
      .max(max, { error: `不能大于 ${max}` }),
  )

export const pageParams = {
  page: intParam(1, 100_000).optional(),
  page_size: intParam(1, 100).optional(),
}

/** Mobile number: digits with an optional leading +, 6–15 digits (international players). */
export const phoneField = z
  .string()
  .trim()
  .regex(/^\+?\d{6,15}$/, { error: '手机号格式不正确' })

export const smsCodeField = z.string().regex(/^\d{6}$/, { error: '验证码必须是6位数字' })

/** A password being set: 8–32 characters with at least one letter and one digit. */
export const newPasswordField = z
  .string()
  .min(8, { error: '密码长度不能少于8位' })
  .max(32, { error: '密码长度不能超过32位' })
  .regex(/[A-Za-z]/, { error: '密码必须包含字母' })
  .regex(/\d/, { error: '密码必须包含数字' })

/** A password being checked: any non-empty text up to 64 characters. */
export const passwordField = z.string().min(1, { error: '不能为空' }).max(64, { error: '长度不能超过64位' })

export const payPasswordField = z.string().regex(/^\d{6}$/, { error: '支付密码必须是6位数字' })

/**
 * A decimal amount with up to 6 places, as text: "12", "12.5", "0.000001". It must fit in integer
 * micro-units (at most 9007199254.740991, see shared/money.ts), so no amount field can carry a value
 * the server cannot hold exactly.
 */
export const amountField = z
  .string()
  .trim()
  .regex(/^(0|[1-9]\d{0,11})(\.\d{1,6})?$/, { error: '金额格式不正确', abort: true })
  .refine(isAmountInRange, { error: '金额超出范围' })

/** A date as YYYY-MM-DD. */
export const dateParam = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: '日期格式应为 YYYY-MM-DD' })

/** An amount in the response: a decimal string such as "0.00". */
export const moneyString = z.string().regex(/^-?\d+\.\d+$/)

export const timestamp = z.number().int().describe('Unix time in milliseconds')

export const paged = <T extends z.ZodType>(item: T) =>
  z.object({
    list: z.array(item),
    page: z.number().int(),
    page_size: z.number().int(),
    total: z.number().int(),
    has_more: z.boolean(),
  })
