import { z } from 'zod'
import { isSuccessCode, type LooseEnvelope, SUCCESS_CODES } from './envelope-plain'

export {
  CODE,
  envelopeMessage,
  isSessionLostCode,
  isSuccessCode,
  readLooseEnvelope,
  SESSION_LOST_CODES,
  SUCCESS_CODES,
} from './envelope-plain'

/** Any envelope, data unchecked: what a failure or an unknown answer is read as. */
export const looseEnvelopeSchema = z.object({
  code: z.number().int(),
  msg: z.string().optional(),
  message: z.string().optional(),
  data: z.unknown().optional(),
})

// The plain reading's type is the schema's (envelope-plain.ts).
true satisfies Equal<z.infer<typeof looseEnvelopeSchema>, LooseEnvelope>
type Equal<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false

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
