import { z } from 'zod'
import { STREAM_EVENTS, type StreamEventType, sessionEndEventSchema } from './contract/stream'

/**
 * The tester's API under /__emu: schemas shared by the server, the CLI and the typed test client.
 * Never imported by the app players download.
 */

/** Header that carries the admin token of the control API, when one is configured. */
export const ADMIN_TOKEN_HEADER = 'x-emu-admin-token'

/** A session "token" that stands for the next call in the scope that carries any token. */
export const ANY_SESSION = 'any'

/** A scope's name, as given in `x-emu-scope`, `?scope=` or a body's `scope`. */
export const scopeNameSchema = z.string().min(1).max(200)
const scopeSchema = scopeNameSchema

/** The scope name that stands for every scope: a control call without a scope, or a global reset. */
export const ALL_SCOPES = '*'

const afterEvents = z.number().int().min(0).max(100_000)
/** The event types a stream action touches; every type when absent. */
const eventTypes = z
  .array(z.enum(Object.keys(STREAM_EVENTS) as [StreamEventType, ...StreamEventType[]]))
  .min(1)
  .optional()
const eventDelay = {
  ms: z.number().int().min(0).max(600_000).optional(),
  minMs: z.number().int().min(0).max(600_000).optional(),
  maxMs: z.number().int().min(0).max(600_000).optional(),
}

/**
 * The push channel's faults (`GET /api/stream`, docs/testing.md#stream-faults). A rule with one
 * fires when a stream opens, like any rule on any call (so `times` counts streams); all but
 * `streamRefuse` then act on that stream's events, as the server sends them.
 */
function streamActionSchemas() {
  return [
    /** After `afterEvents` events, the connection closes mid-stream, as a network failure would. */
    z.strictObject({ type: z.literal('streamDrop'), afterEvents }),
    /** Each event (of `events`) `ms` late, or uniformly `minMs`..`maxMs`; the order is kept. */
    z
      .strictObject({ type: z.literal('streamDelay'), ...eventDelay, events: eventTypes })
      .refine((a) => a.ms !== undefined || a.minMs !== undefined || a.maxMs !== undefined, {
        error: 'streamDelay needs ms, or minMs and maxMs',
      })
      .refine((a) => a.minMs === undefined || a.maxMs === undefined || a.minMs <= a.maxMs, {
        error: 'minMs must not exceed maxMs',
      }),
    /** Each event (of `events`) sent twice, with the same id. */
    z.strictObject({ type: z.literal('streamDuplicate'), events: eventTypes }),
    /** An event (of `events`) held back and sent right after the next one. */
    z.strictObject({ type: z.literal('streamReorder'), events: eventTypes }),
    /**
     * After `afterEvents` events, the next `count` (of `events`) are never sent; the scope's next
     * reconnection gets a `snapshot` (reason `gap`) instead of the replay.
     */
    z.strictObject({
      type: z.literal('streamSkip'),
      count: z.number().int().min(1).max(100_000),
      afterEvents: afterEvents.default(0),
      events: eventTypes,
    }),
    /**
     * A reconnection (an opening with `Last-Event-ID`) is refused: this HTTP status with the
     * envelope `{code: status, msg, data: null}`. A first opening is not matched, nor counted.
     */
    z.strictObject({
      type: z.literal('streamRefuse'),
      status: z.number().int().min(400).max(599).default(503),
    }),
    /**
     * After `afterEvents` events, a `session_end` on the stream, which then closes; the session
     * itself stays live.
     */
    z.strictObject({
      type: z.literal('streamSessionEnd'),
      afterEvents: afterEvents.default(0),
      reason: sessionEndEventSchema.shape.reason.default('revoked'),
    }),
  ] as const
}

/** The actions that work on the push channel only. */
const STREAM_ACTIONS = [
  'streamDrop',
  'streamDelay',
  'streamDuplicate',
  'streamReorder',
  'streamSkip',
  'streamRefuse',
  'streamSessionEnd',
] as const

export const faultActionSchema = z.discriminatedUnion('type', [
  /** HTTP 200 with a body code and message, such as 10001 or 401. */
  z.strictObject({
    type: z.literal('envelope'),
    code: z.number().int(),
    msg: z.string().optional(),
    message: z.string().optional(),
    data: z.unknown().optional(),
    template: z.boolean().optional(),
  }),
  /** An HTTP status with a body (JSON when an object, else text). */
  z.strictObject({
    type: z.literal('status'),
    status: z.number().int().min(100).max(599),
    body: z.unknown().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    /**
     * Fill `{{…}}` in the answer's strings from the request: `{{request.path}}`,
     * `{{request.query.NAME}}`, `{{request.headers.NAME}}`, `{{request.body.FIELD}}`, `{{counter}}`
     * (this rule's firings, from 1), `{{now}}` (emulator ms on the call's clock), `{{nowIso}}`.
     */
    template: z.boolean().optional(),
  }),
  /** Wait, then answer as usual. `ms` fixed, or a uniform range `minMs`..`maxMs`. Real time. */
  z
    .strictObject({
      type: z.literal('delay'),
      ms: z.number().int().min(0).max(600_000).optional(),
      minMs: z.number().int().min(0).max(600_000).optional(),
      maxMs: z.number().int().min(0).max(600_000).optional(),
    })
    .refine((a) => a.ms !== undefined || a.minMs !== undefined || a.maxMs !== undefined, {
      error: 'delay needs ms, or minMs and maxMs',
    })
    .refine((a) => a.minMs === undefined || a.maxMs === undefined || a.minMs <= a.maxMs, {
      error: 'minMs must not exceed maxMs',
    }),
  /** Never answer (the client's own timeout fires). */
  z.strictObject({ type: z.literal('hang') }),
  /**
   * A real TCP reset. `after: "head"`: first a status line and headers, then the reset — a browser
   * cannot retry that one silently (it may retry a reset that comes before any byte of the answer
   * on a kept-alive connection).
   */
  z.strictObject({ type: z.literal('reset'), after: z.enum(['nothing', 'head']).optional() }),
  /** The real answer, at most this many bytes a second (like Toxiproxy's bandwidth). */
  z.strictObject({
    type: z.literal('bandwidth'),
    bytesPerSecond: z.number().int().min(1).max(1_000_000_000),
  }),
  /** The real answer in chunks of `chunkBytes`, `delayMs` apart (like Toxiproxy's slicer). */
  z.strictObject({
    type: z.literal('slicer'),
    chunkBytes: z.number().int().min(1).max(1_048_576),
    delayMs: z.number().int().min(0).max(60_000),
  }),
  /** The real answer, whole, but the connection (and the body's end) held open `ms` longer. */
  z.strictObject({ type: z.literal('slowClose'), ms: z.number().int().min(0).max(600_000) }),
  /** The real answer after `ms`, give or take up to `jitterMs` (seeded), in real time. */
  z.strictObject({
    type: z.literal('latency'),
    ms: z.number().int().min(0).max(600_000),
    jitterMs: z.number().int().min(0).max(600_000).optional(),
  }),
  /** Nothing for `ms`, then the connection is closed without an answer (like Toxiproxy's timeout). */
  z.strictObject({ type: z.literal('timeout'), ms: z.number().int().min(0).max(600_000) }),
  /** Close the connection without a response. */
  z.strictObject({ type: z.literal('empty') }),
  /** HTTP 200 with a body that is not JSON. */
  z.strictObject({ type: z.literal('malformed'), body: z.string().optional() }),
  /** The real answer, cut off halfway through its body. */
  z.strictObject({ type: z.literal('truncate') }),
  ...streamActionSchemas(),
])
export type FaultAction = z.infer<typeof faultActionSchema>
export type StreamAction = Extract<FaultAction, { type: (typeof STREAM_ACTIONS)[number] }>

/** Whether an action works on the push channel's events (or its reconnections) only. */
export const isStreamAction = (action: FaultAction): action is StreamAction =>
  (STREAM_ACTIONS as readonly string[]).includes(action.type)

const isRegExp = (source: string): boolean => {
  try {
    new RegExp(source)
    return true
  } catch {
    return false
  }
}

const scalar = z.union([z.string(), z.number(), z.boolean()])

/**
 * One test of a query parameter, header or body field: a plain value (equal, compared as text),
 * `{equals}`, `{matches: "regex"}` or `{present: true|false}`.
 */
export const fieldTestSchema = z.union([
  scalar,
  z.strictObject({ equals: scalar }),
  z.strictObject({ matches: z.string().refine(isRegExp, { error: 'not a valid regular expression' }) }),
  z.strictObject({ present: z.boolean() }),
])
export type FieldTest = z.infer<typeof fieldTestSchema>

/**
 * The short form of a test, as written in a query string or on the command line: `name=value`
 * (equal), `name~=regex` (matches), `name` (present) or `!name` (absent).
 */
export function parseFieldTest(text: string): [string, FieldTest] {
  if (text.startsWith('!')) return [text.slice(1), { present: false }]
  const re = text.indexOf('~=')
  const eq = text.indexOf('=')
  if (re > 0 && re < eq + 1) return [text.slice(0, re), { matches: text.slice(re + 2) }]
  if (eq > 0) return [text.slice(0, eq), { equals: text.slice(eq + 1) }]
  return [text, { present: true }]
}

/** Tests by name; every one must hold. */
export const fieldTestsSchema = z.record(z.string().min(1), fieldTestSchema)

export const faultMatchSchema = z.strictObject({
  /** HTTP method; any when absent. */
  method: z
    .string()
    .transform((m) => m.toUpperCase())
    .optional(),
  /**
   * Path glob under the server root, without the query: `*` is one segment, `**` any number,
   * e.g. `/api/api/getBalance` or `/api/**`. Query parameters go in `query`.
   */
  path: z
    .string()
    .startsWith('/')
    .refine((p) => !p.includes('?'), {
      error: 'path 不能带查询串（?…）：查询参数请写在 match.query 里，如 {"query":{"player_id":"1"}}',
    })
    .default('/api/**'),
  /** Query parameters, e.g. `{"player_id": "7"}`. */
  query: fieldTestsSchema.optional(),
  /** Request headers (names in any case), e.g. `{"x-client": {"matches": "^ios"}}`. */
  headers: fieldTestsSchema.optional(),
  /**
   * Body fields: a JSON body's keys as dot paths (`items.0.id`), or form fields (urlencoded or
   * multipart), e.g. `{"amount": "500"}` or `{"pay_password": {"present": true}}`.
   */
  body: fieldTestsSchema.optional(),
  /** Fire only on the nth matching call (1-based). */
  nth: z.number().int().positive().optional(),
})

const stateNameSchema = z.string().min(1).max(100)

/** The state every state machine starts in, and returns to on a reset. */
export const STARTED = 'Started'

export const faultRuleInputSchema = z.strictObject({
  match: faultMatchSchema.default({ path: '/api/**' }),
  action: faultActionSchema,
  /** Isolates the rule: only requests with this x-emu-scope header (or this session token) see it. */
  scope: scopeSchema.optional(),
  /** Let the first N matching calls through untouched. */
  after: z.number().int().min(0).default(0),
  /** Fire on every Nth eligible call only (the Nth, 2Nth, … after `after`). */
  every: z.number().int().positive().optional(),
  /**
   * Each call fails at most once: a call repeating the last one this rule fired on (same method and
   * path) goes through uncounted, as a client's retry of a transient failure would.
   */
  retryPasses: z.boolean().default(false),
  /** Fire at most this many times, then stop (the rule stays listed as spent). */
  times: z.number().int().positive().optional(),
  /** Chance of firing on each eligible call, drawn from the rule's own seeded generator. */
  probability: z.number().min(0).max(1).default(1),
  /** Seed of the rule's generator (probability and delay ranges); the server's seed when absent. */
  seed: z.number().int().optional(),
  /** Stop firing at this emulator-clock time (ms), read on the clock of the request's scope. */
  until: z.number().int().optional(),
  /** Free text shown in the journal. */
  label: z.string().max(200).optional(),
  /**
   * State machine the rule belongs to (one per name and scope, starting in `Started`): with
   * `whenState` the rule fires only in that state; with `setState` firing moves the machine on.
   */
  inScenario: stateNameSchema.optional(),
  whenState: stateNameSchema.optional(),
  setState: stateNameSchema.optional(),
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

/**
 * Moving the world clock backwards is refused unless `force` is given: the world's draws,
 * confirmations and approvals have already happened up to the current time.
 */
const force = z.boolean().optional()

export const clockSetSchema = z.discriminatedUnion('mode', [
  z.strictObject({ mode: z.literal('real'), force }),
  z.strictObject({ mode: z.literal('frozen'), at: z.number().int().optional(), force }),
  z.strictObject({ mode: z.literal('offset'), offsetMs: z.number().int(), force }),
])
export type ClockSet = z.infer<typeof clockSetSchema>

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
  /** The scope this clock belongs to; null for the world clock. */
  scope: z.string().nullable().optional(),
})
export type ClockStateView = z.infer<typeof clockStateSchema>

export const sessionFaultSchema = z.enum(['expire', 'revoke'])
export type SessionFaultKind = z.infer<typeof sessionFaultSchema>

export const sessionLifetimeSchema = z
  .strictObject({
    /** Emulator-clock ms from now (on the clock of the scope the call names). */
    ms: z.number().int().min(0).optional(),
    /** Further requests allowed; the one after the last gets 10001. */
    requests: z.number().int().min(0).optional(),
  })
  .refine((b) => b.ms !== undefined || b.requests !== undefined, { error: 'give ms or requests' })
export type SessionLifetime = z.infer<typeof sessionLifetimeSchema>

export const resetSchema = z.strictObject({
  /**
   * Only this scope's rules, session faults, clock, scenario and journal; the data stays. `*`:
   * everything, and the data back to the seed. One of the two must be named (here, in the query or
   * in the header).
   */
  scope: scopeSchema.optional(),
  /** New seed for the generators of rules added from now on. */
  seed: z.number().int().optional(),
})

export const seedSchema = z.strictObject({ seed: z.number().int() })

// ---------------------------------------------------------------------------------------------
// Recording

/** Start recording, in a scope (or none): what matched calls were answered, for a scenario file. */
export const recordStartSchema = z.strictObject({
  /** The scenario file to write: fixtures/scenarios/<name>.json. */
  name: z.string().regex(/^[a-z0-9-]+$/),
  description: z.string().min(1).optional(),
  /** Which calls to record: method, path glob, query and headers as in rules. */
  match: faultMatchSchema.omit({ body: true, nth: true }).default({ path: '/api/**' }),
  scope: scopeNameSchema.optional(),
  /** Replace an existing file of that name. */
  overwrite: z.boolean().optional(),
})

export type RecordStart = z.input<typeof recordStartSchema>

export const recordingSchema = z.object({
  name: z.string(),
  scope: z.string().nullable(),
  /** Answers recorded so far. */
  recorded: z.number().int(),
  /** Where the file is written when recording stops. */
  file: z.string().nullable(),
})
export type Recording = z.infer<typeof recordingSchema>

export const recordStopSchema = z.strictObject({ scope: scopeNameSchema.optional() })

// ---------------------------------------------------------------------------------------------
// The journal

const messageSchema = z.object({
  headers: z.record(z.string(), z.string()),
  /** The body as text (bytes that are not UTF-8 are replaced); null when there was none. */
  body: z.string().nullable(),
  /** The body's full size in bytes. */
  bodyBytes: z.number().int(),
  truncated: z.boolean(),
})

/** One event of a stream, as the journal notes it. */
const journalStreamEventSchema = z.object({
  /** Wall-clock time it was sent (or skipped, or held). */
  at: z.number().int(),
  id: z.string(),
  type: z.string(),
  /** False: not sent (skipped, or held back to be sent later: then noted again when sent). */
  sent: z.boolean(),
  /** What a stream fault did to it (`streamDelay 200ms`, `streamDuplicate`, `streamSkip`…); null: nothing. */
  fault: z.string().nullable(),
})
export type JournalStreamEvent = z.infer<typeof journalStreamEventSchema>

const journalStreamSchema = z.object({
  /** Events sent on the stream (a duplicate counts twice). */
  events: z.number().int(),
  /** Events a fault touched (delayed, duplicated, reordered, skipped, made up). */
  touched: z.number().int(),
  /** How it ended: `dropped` (streamDrop), `session_end` (streamSessionEnd), `closed` (anything else); null while open. */
  end: z.enum(['closed', 'dropped', 'session_end']).nullable(),
  /** The newest 30 events, oldest first. */
  recent: z.array(journalStreamEventSchema),
})

export const journalEntrySchema = z.object({
  /** Increases by one per request since the server started; use it to tail. */
  seq: z.number().int(),
  /** Wall-clock time the request arrived (ms since the epoch). */
  at: z.number().int(),
  /** Emulator time the request saw, on its scope's clock. */
  clock: z.number().int(),
  method: z.string(),
  /** Path and query; secrets in the query (tokens, passwords) are redacted. */
  url: z.string(),
  path: z.string(),
  /** The x-emu-scope header, or `token:` and a short hash of the session token; null when none. */
  scope: z.string().nullable(),
  /** HTTP status sent; null while the request is open or when no response was sent. */
  status: z.number().int().nullable(),
  /** Body code of the envelope, when the answer was one. */
  code: z.number().int().nullable(),
  /** What the fault layer did: a rule, a session fault, or nothing (null). */
  fault: z
    .object({
      kind: z.enum(['rule', 'session']),
      ruleId: z.string().nullable(),
      label: z.string().nullable(),
      action: z.string(),
    })
    .nullable(),
  /** answered; or what happened to the connection instead (`dropped`: a stream cut off by `streamDrop`). */
  outcome: z.enum([
    'pending',
    'answered',
    'hang',
    'reset',
    'empty',
    'truncated',
    'timeout',
    'aborted',
    'dropped',
  ]),
  /** ms from arrival to the end of the answer (or of the connection); null while open. */
  durationMs: z.number().nullable(),
  /**
   * What was sent: query parameters, headers and body. Secrets (tokens, passwords, payment
   * passwords, the admin token) read `[redacted]`; a body is kept up to a few KiB
   * (`truncated` says it was cut). null once the journal dropped it to stay within its total
   * size (the entry itself stays).
   */
  request: messageSchema.extend({ query: z.record(z.string(), z.array(z.string())) }).nullable(),
  /** What was answered, kept the same way; null before the answer or when none was sent. */
  response: messageSchema.nullable(),
  /** `GET /api/stream`: the events it sent, and what the stream faults did to them. */
  stream: journalStreamSchema.optional(),
  /**
   * Proxy mode: where the upstream's answer differs from the contract (`data.list[].amount: expected
   * string, got number`); absent when it conforms or was not checked.
   */
  contract: z.array(z.string()).optional(),
})
export type JournalEntry = z.infer<typeof journalEntrySchema>

const boolParam = z.union([
  z.boolean(),
  z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1'),
])
const intParam = z.coerce.number().int()

/** A short-form test (`name~=regex` has a valid regular expression). */
const shortTest = z
  .string()
  .min(1)
  .refine(
    (text) => {
      const test = parseFieldTest(text)[1]
      return typeof test !== 'object' || !('matches' in test) || isRegExp(test.matches)
    },
    { error: 'not a valid regular expression after ~=' },
  )
/** Field tests, as a record or in short form (`name=value`, `name~=regex`, `name`, `!name`). */
const fieldFilterSchema = z.union([fieldTestsSchema, shortTest, z.array(shortTest)])

/** What selects journal entries; every field narrows. */
export const journalFilterSchema = z.strictObject({
  /** The x-emu-scope value, or a session token (matched through its hash). */
  scope: scopeSchema.optional(),
  method: z
    .string()
    .transform((m) => m.toUpperCase())
    .optional(),
  /** Path glob, as in rules. */
  path: z.string().startsWith('/').optional(),
  /** Wall-clock ms, inclusive. */
  since: intParam.optional(),
  until: intParam.optional(),
  /** Only requests no rule or session fault touched (true), or only touched ones (false). */
  unmatched: boolParam.optional(),
  /** Only requests this rule fired on. */
  rule: z.string().optional(),
  status: intParam.optional(),
  code: intParam.optional(),
  /** Only entries after this sequence number (for tailing). */
  afterSeq: intParam.optional(),
  /**
   * Query parameters, request headers and body fields the call had, each as tests by name, or in
   * the short form of a query string: `name=value`, `name~=regex`, `name` (present), `!name`
   * (absent); repeat for several. Secret fields are stored redacted, so they only match as present.
   */
  query: fieldFilterSchema.optional(),
  header: fieldFilterSchema.optional(),
  body: fieldFilterSchema.optional(),
})
export type JournalFilter = z.input<typeof journalFilterSchema>

/** "Was it called N times?": a filter and how many calls are expected (exactly, or a range). */
export const journalVerifySchema = journalFilterSchema.extend({
  times: z.number().int().min(0).optional(),
  atLeast: z.number().int().min(0).optional(),
  atMost: z.number().int().min(0).optional(),
})
export type JournalVerify = z.input<typeof journalVerifySchema>

export const verificationSchema = z.object({
  ok: z.boolean(),
  count: z.number().int(),
  /** What was expected, in words: `exactly 2`, `at least 1`, `between 1 and 3`. */
  expected: z.string(),
  /** Up to 20 of the calls that matched, oldest first. */
  entries: z.array(journalEntrySchema),
})
export type Verification = z.infer<typeof verificationSchema>

export const journalQuerySchema = journalFilterSchema.extend({
  /** The newest entries up to this many (oldest first in the answer). */
  limit: z.coerce.number().int().min(1).max(5000).default(200),
})
export type JournalQuery = z.input<typeof journalQuerySchema>

export const journalPageSchema = z.object({
  entries: z.array(journalEntrySchema),
  /** Entries kept now, and the most the ring holds. */
  size: z.number().int(),
  capacity: z.number().int(),
  /** The newest sequence number given out so far. */
  lastSeq: z.number().int(),
})
export type JournalPage = z.infer<typeof journalPageSchema>

// ---------------------------------------------------------------------------------------------
// Scenarios

const templated = z.string().min(1)

/**
 * A step is a call the server makes to itself (any /api or /__emu endpoint) while activating a
 * scenario, so a scenario can drive domains it knows nothing about. `{{name}}` in any string is
 * replaced by a parameter or by a value saved by an earlier step.
 */
export const scenarioStepSchema = z
  .strictObject({
    name: z.string().optional(),
    method: z.enum(['GET', 'POST', 'PUT', 'DELETE', 'PATCH']).default('GET'),
    /** Starts with /api/ or /__emu/. */
    url: templated.refine((u) => u.startsWith('/api/') || u.startsWith('/__emu/'), {
      error: 'a step calls /api/… or /__emu/…',
    }),
    json: z.unknown().optional(),
    form: z.record(z.string(), z.string()).optional(),
    multipart: z.record(z.string(), z.string()).optional(),
    headers: z.record(z.string(), z.string()).optional(),
    /** Send the token saved as this variable in the `token` header. */
    auth: z.string().optional(),
    /** Variable name → dot path into the JSON answer, e.g. `{ "token": "data.token" }`. */
    save: z.record(z.string(), z.string()).optional(),
    /** Envelope codes that count as success (default 1 and 200); anything else stops the activation. */
    expectCode: z.array(z.number().int()).optional(),
  })
  .refine((s) => [s.json, s.form, s.multipart].filter((b) => b !== undefined).length <= 1, {
    error: 'give at most one of json, form, multipart',
  })
export type ScenarioStep = z.infer<typeof scenarioStepSchema>

export const scenarioSessionSchema = z
  .strictObject({
    /** A token, `{{token}}` from a parameter or a step, or `any`: the next call in the scope that carries a token. */
    token: templated,
    fault: sessionFaultSchema.optional(),
    lifetime: sessionLifetimeSchema.optional(),
  })
  .refine((s) => (s.fault === undefined) !== (s.lifetime === undefined), {
    error: 'give either fault or lifetime',
  })

export const scenarioSchema = z.strictObject({
  $schema: z.string().optional(),
  name: z.string().regex(/^[a-z0-9-]+$/),
  description: z.string().min(1),
  /** Put the data back to the seed first (global activation only; a scoped one never touches shared data). */
  reset: z.boolean().default(false),
  /** Seed for the generators of the rules this scenario adds. */
  seed: z.number().int().optional(),
  /** Parameters with their defaults; the activation call may override them. */
  params: z.record(z.string(), z.string()).default({}),
  /** Calls made first, in order: log in, place an order, confirm it… */
  steps: z.array(scenarioStepSchema).default([]),
  clock: clockSetSchema.optional(),
  advanceMs: z.number().int().min(0).optional(),
  /** Fault rules, added in the activation's scope. */
  rules: z
    .array(
      faultRuleInputSchema
        .omit({ scope: true })
        .refine(
          (r) => r.inScenario !== undefined || (r.whenState === undefined && r.setState === undefined),
          {
            error: 'whenState and setState need inScenario',
          },
        ),
    )
    .default([]),
  sessions: z.array(scenarioSessionSchema).default([]),
})
export type Scenario = z.infer<typeof scenarioSchema>
export type ScenarioInput = z.input<typeof scenarioSchema>

export const activateSchema = z.strictObject({
  scope: scopeSchema.optional(),
  params: z.record(z.string(), z.string()).optional(),
  /**
   * Proxy mode: let steps that change data (any call but a GET or a login: deposits,
   * withdrawals, balance changes…) reach the real upstream. Refused without it.
   */
  allowData: z.boolean().optional(),
  /** Let the scenario's clock move the world clock backwards. */
  force: z.boolean().optional(),
})

export const activationSchema = z.object({
  scenario: z.string(),
  scope: z.string().nullable(),
  /** Parameters and values saved by steps (tokens redacted). */
  vars: z.record(z.string(), z.string()),
  rules: z.array(z.string()),
  steps: z.array(z.object({ name: z.string(), status: z.number().int(), code: z.number().int().nullable() })),
})
export type Activation = z.infer<typeof activationSchema>

export const scenarioSummarySchema = z.object({ name: z.string(), description: z.string() })

// ---------------------------------------------------------------------------------------------
// State

/** Where one state machine is, in one scope (null: unscoped rules). */
export const machineStateSchema = z.object({
  scope: z.string().nullable(),
  name: z.string(),
  state: z.string(),
})
export type MachineState = z.infer<typeof machineStateSchema>

export const setMachineStateSchema = z.strictObject({
  state: stateNameSchema,
  scope: scopeNameSchema.optional(),
})

export const emuStateSchema = z.object({
  mode: z.enum(['emulator', 'proxy']),
  clock: clockStateSchema,
  seed: z.number().int(),
  rules: z.array(faultRuleSchema),
  sessionFaults: z.array(
    z.object({ token: z.string(), fault: sessionFaultSchema, scope: z.string().nullable() }),
  ),
  scopes: z.array(
    z.object({
      scope: z.string(),
      clock: clockStateSchema.nullable(),
      scenario: z.string().nullable(),
      rules: z.number().int(),
    }),
  ),
  scenario: z.string().nullable(),
  /** State machines that have left `Started` or have rules. */
  states: z.array(machineStateSchema),
  journal: z.object({ size: z.number().int(), capacity: z.number().int(), lastSeq: z.number().int() }),
})
export type EmuState = z.infer<typeof emuStateSchema>

/** Every control answer is an envelope like the API's. */
export const controlEnvelopeSchema = z.object({
  code: z.number().int(),
  msg: z.string().optional(),
  data: z.unknown(),
})
