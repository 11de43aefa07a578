import { z } from 'zod'

/**
 * The tester's API under /__emu: schemas shared by the server, the CLI and the typed test client.
 * Never imported by the app players download.
 */

export const faultActionSchema = z.discriminatedUnion('type', [
  /** HTTP 200 with a body code and message, such as 10001 or 401. */
  z.strictObject({
    type: z.literal('envelope'),
    code: z.number().int(),
    msg: z.string().optional(),
    message: z.string().optional(),
    data: z.unknown().optional(),
  }),
  /** An HTTP status with a body (JSON when an object, else text). */
  z.strictObject({
    type: z.literal('status'),
    status: z.number().int().min(100).max(599),
    body: z.unknown().optional(),
    headers: z.record(z.string(), z.string()).optional(),
  }),
  /** Wait, then answer as usual. `ms` fixed, or a uniform range `minMs`..`maxMs`. Real time. */
  z.strictObject({
    type: z.literal('delay'),
    ms: z.number().int().min(0).max(600_000).optional(),
    minMs: z.number().int().min(0).max(600_000).optional(),
    maxMs: z.number().int().min(0).max(600_000).optional(),
  }),
  /** Never answer (the client's own timeout fires). */
  z.strictObject({ type: z.literal('hang') }),
  /** A real TCP reset. */
  z.strictObject({ type: z.literal('reset') }),
  /** Close the connection without a response. */
  z.strictObject({ type: z.literal('empty') }),
  /** HTTP 200 with a body that is not JSON. */
  z.strictObject({ type: z.literal('malformed') }),
  /** The real answer, cut off halfway through its body. */
  z.strictObject({ type: z.literal('truncate') }),
])
export type FaultAction = z.infer<typeof faultActionSchema>

export const faultMatchSchema = z.strictObject({
  /** HTTP method; any when absent. */
  method: z
    .string()
    .transform((m) => m.toUpperCase())
    .optional(),
  /** Path glob under the server root: `*` is one segment, `**` any number, e.g. `/api/api/getBalance` or `/api/**`. */
  path: z.string().startsWith('/').default('/api/**'),
  /** Fire only on the nth matching call (1-based). */
  nth: z.number().int().positive().optional(),
})

export const faultRuleInputSchema = z.strictObject({
  match: faultMatchSchema.default({ path: '/api/**' }),
  action: faultActionSchema,
  /** Isolates the rule: only requests with this x-emu-scope header (or this session token) see it. */
  scope: z.string().min(1).max(200).optional(),
  /** Let the first N matching calls through untouched. */
  after: z.number().int().min(0).default(0),
  /** Fire at most this many times, then stop (the rule stays listed as spent). */
  times: z.number().int().positive().optional(),
  /** Chance of firing on each eligible call, with the server's seeded generator. */
  probability: z.number().min(0).max(1).default(1),
  /** Stop firing at this emulator-clock time (ms). */
  until: z.number().int().optional(),
  /** Free text shown in the journal. */
  label: z.string().max(200).optional(),
})
export type FaultRuleInput = z.input<typeof faultRuleInputSchema>

export const faultRuleSchema = faultRuleInputSchema.extend({
  id: z.string(),
  createdAt: z.number().int(),
  /** Calls that matched method, path and scope. */
  matched: z.number().int(),
  /** Calls the action was applied to. */
  fired: z.number().int(),
  spent: z.boolean(),
})
export type FaultRule = z.infer<typeof faultRuleSchema>

export const clockSetSchema = z.discriminatedUnion('mode', [
  z.strictObject({ mode: z.literal('real') }),
  z.strictObject({ mode: z.literal('frozen'), at: z.number().int().optional() }),
  z.strictObject({ mode: z.literal('offset'), offsetMs: z.number().int() }),
])

export const clockAdvanceSchema = z.strictObject({
  ms: z
    .number()
    .int()
    .min(0)
    .max(366 * 24 * 3600 * 1000),
})

export const clockStateSchema = z.object({
  mode: z.enum(['real', 'frozen', 'offset']),
  now: z.number().int(),
  offsetMs: z.number().int(),
})

export const sessionFaultSchema = z.enum(['expire', 'revoke'])

export const resetSchema = z.strictObject({ scope: z.string().min(1).optional() })
