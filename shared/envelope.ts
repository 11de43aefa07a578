import { z } from 'zod'

/** Body codes of the response envelope (docs/product.md#calls, #error-catalogue). */
export const CODE = {
  /** Success, as most endpoints answer. */
  ok: 1,
  /** Success, as some endpoints answer. */
  okAlt: 200,
  /** The session is gone: the client clears the login and goes to /login?isreg=0. */
  sessionExpired: 10001,
  /** Also a lost session when it comes in the body. */
  sessionUnauthorized: 401,
  // Our own failure codes. Any code that is not a success or session code is a failure
  // whose message the client shows, so these only need to be distinct and stable.
  failed: 0,
  invalidInput: 40000,
  payloadTooLarge: 41300,
  rateLimited: 42900,
  /** A state-changing call sent by a page on another site. */
  crossSite: 40300,
  notFound: 40400,
  methodNotAllowed: 40500,
  conflict: 40900,
  internal: 50000,
} as const

export const SUCCESS_CODES: readonly number[] = [CODE.ok, CODE.okAlt]
export const SESSION_LOST_CODES: readonly number[] = [CODE.sessionExpired, CODE.sessionUnauthorized]

export const isSuccessCode = (code: number): boolean => SUCCESS_CODES.includes(code)
export const isSessionLostCode = (code: number): boolean => SESSION_LOST_CODES.includes(code)

/** `{ code, msg, data }`; the upstream sometimes says `message` instead of `msg`. */
export const envelopeSchema = <T extends z.ZodType>(data: T) =>
  z.object({
    code: z.number().int(),
    msg: z.string().optional(),
    message: z.string().optional(),
    data,
  })

/** Any envelope, data unchecked: what a failure or an unknown answer is read as. */
export const looseEnvelopeSchema = z.object({
  code: z.number().int(),
  msg: z.string().optional(),
  message: z.string().optional(),
  data: z.unknown().optional(),
})

export type LooseEnvelope = z.infer<typeof looseEnvelopeSchema>

/** The message an envelope carries: `message`, then `msg`, then undefined. */
export const envelopeMessage = (env: { msg?: string | undefined; message?: string | undefined }) =>
  env.message || env.msg || undefined

/** A refusal as the server sends it: a code that is not a success, the message, and data null. */
export const failureEnvelopeSchema = z.strictObject({
  code: z
    .number()
    .int()
    .refine((code) => !isSuccessCode(code), { error: 'a refusal never carries a success code' }),
  msg: z.string().min(1),
  data: z.null(),
})

/** A success as the server sends it: code 1 or 200, a message, and data per the contract. */
export const successEnvelopeSchema = <T extends z.ZodType>(data: T) =>
  z.strictObject({
    code: z.union(SUCCESS_CODES.map((c) => z.literal(c))),
    msg: z.string(),
    data,
  })

/**
 * Every answer an endpoint may give: its success envelope (code 1 or 200, data per the contract)
 * or a refusal. What the server's answers are checked against in tests.
 */
export const answerSchema = <T extends z.ZodType>(data: T) =>
  z.union([successEnvelopeSchema(data), failureEnvelopeSchema])
