import { z } from 'zod'

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

/**
 * Password rules (OWASP ASVS 5.0 level 1): 8 to 128 characters, counted as Unicode code points;
 * any characters at all (letters of any script, spaces, symbols); no composition rules. The server
 * also refuses passwords from a list of common and breached ones (docs/security.md).
 */
export const PASSWORD_LIMITS = { min: 8, max: 128 } as const

/** The words of the password rules, the same on every form and in every server answer. */
export const PASSWORD_MSG = {
  tooShort: `密码长度不能少于${PASSWORD_LIMITS.min}位`,
  tooLong: `密码长度不能超过${PASSWORD_LIMITS.max}位`,
  common: '该密码过于常见，容易被猜到，请换一个',
  help: `${PASSWORD_LIMITS.min}–${PASSWORD_LIMITS.max}位，可用任意文字、数字和符号，不能是常见密码`,
} as const

const codePoints = (value: string): number => [...value].length

/** A password being set. JSON Schema counts minLength and maxLength in code points, as this does. */
export const newPasswordField = z
  .string()
  .refine((v) => codePoints(v) >= PASSWORD_LIMITS.min, { error: PASSWORD_MSG.tooShort, abort: true })
  .refine((v) => codePoints(v) <= PASSWORD_LIMITS.max, { error: PASSWORD_MSG.tooLong })
  .meta({ minLength: PASSWORD_LIMITS.min, maxLength: PASSWORD_LIMITS.max })

/**
 * A short note the player writes (an address label): trimmed, then counted in code points as the
 * published document's minLength and maxLength are; a required one must hold more than spaces.
 */
export const noteField = (o: { max: number; tooLong: string; empty?: string }) => {
  const trimmed = z.string().trim()
  const filled = o.empty ? trimmed.refine((v) => v.length > 0, { error: o.empty, abort: true }) : trimmed
  return filled
    .refine((v) => codePoints(v) <= o.max, { error: o.tooLong })
    .meta(o.empty ? { minLength: 1, maxLength: o.max, pattern: '\\S' } : { maxLength: o.max })
}

/** A password being checked: any non-empty text a password could be. */
export const passwordField = z
  .string()
  .refine((v) => v.length > 0, { error: '不能为空', abort: true })
  .refine((v) => codePoints(v) <= PASSWORD_LIMITS.max, { error: PASSWORD_MSG.tooLong })
  .meta({ minLength: 1, maxLength: PASSWORD_LIMITS.max })

export const payPasswordField = z.string().regex(/^\d{6}$/, { error: '支付密码必须是6位数字' })

/**
 * A decimal amount as text: "12", "12.5", "0.000001" — at most 9 whole digits and 6 places, so
 * every amount the pattern admits (and the published document shows) fits exactly in integer
 * micro-units; larger values are refused as input, never reach the ledger.
 */
export const AMOUNT_FORMAT_ERROR = '金额格式不正确：最多 9 位整数、6 位小数'

export const amountField = z
  .string()
  .trim()
  .regex(/^(0|[1-9]\d{0,8})(\.\d{1,6})?$/, { error: AMOUNT_FORMAT_ERROR })

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
