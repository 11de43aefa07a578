import { SCOPE_HEADER } from '@shared/constants'
import * as control from '@shared/emu-contract/control'
import {
  type ControlBodyOf,
  type ControlDataOf,
  type ControlEndpoint,
  type ControlParamsOf,
  type ControlQueryOf,
  controlPath,
} from '@shared/emu-contract/control-endpoint'
import {
  type Activation,
  ADMIN_TOKEN_HEADER,
  ALL_SCOPES,
  type ClockSet,
  type ClockStateView,
  controlEnvelopeSchema,
  type EmuState,
  type FaultAction,
  type FaultRule,
  type FaultRuleInput,
  type JournalEntry,
  type JournalFilter,
  type JournalPage,
  type JournalQuery,
  type JournalVerify,
  type MachineState,
  type Recording,
  type RecordStart,
  type Scenario,
  type SessionFaultKind,
  type SessionLifetime,
  type Verification,
} from '@shared/emu-control'
import { z } from 'zod'

/** The demo player the emulator seeds. */
export const DEMO_PLAYER = { phone: '13800138000', password: 'demo1234' } as const

const loginAnswerSchema = z.object({
  code: z.number(),
  msg: z.string().optional(),
  data: z.looseObject({ token: z.string(), player_id: z.number() }).nullable().optional(),
})

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** A control call the server refused: carries the HTTP status and the envelope's code and message. */
export class EmuControlError extends Error {
  override name = 'EmuControlError'
  constructor(
    readonly status: number,
    readonly code: number | null,
    message: string,
  ) {
    super(message)
  }
}

/** What a control call sends: its path parameters, query and body, each where its contract has one. */
export type ControlCallInput<E extends ControlEndpoint> = {
  readonly params?: ControlParamsOf<E>
  readonly query?: ControlQueryOf<E>
  readonly body?: ControlBodyOf<E>
}

export interface EmuClientOptions {
  /** The server's origin, e.g. http://localhost:3000. */
  readonly url: string
  /** Needed whenever the server has EMU_ADMIN_TOKEN set. */
  readonly adminToken?: string | undefined
  /** Every call of this client reads and changes only this scope (sent as x-emu-scope). */
  readonly scope?: string | undefined
  readonly fetch?: typeof fetch
}

/**
 * The typed client of the /__emu control API, for Vitest, Playwright and the CLI. Every answer is
 * parsed with the shared schemas, so a server that drifts from them fails loudly here.
 *
 * ```ts
 * const emu = new EmuClient({ url: 'http://localhost:3000' }).withScope('checkout-test')
 * await emu.addFault({ match: { path: '/api/api/getBalance' }, action: { type: 'status', status: 503 }, times: 2 })
 * ```
 */
export class EmuClient {
  private readonly doFetch: typeof fetch

  constructor(readonly options: EmuClientOptions) {
    this.doFetch = options.fetch ?? fetch
  }

  /** The same server, but every call in this scope. */
  withScope(scope: string): EmuClient {
    return new EmuClient({ ...this.options, scope })
  }

  /** Headers a player's /api call needs to be seen in this client's scope. */
  scopeHeaders(): Record<string, string> {
    return this.options.scope ? { [SCOPE_HEADER]: this.options.scope } : {}
  }

  state(): Promise<EmuState> {
    return this.control(control.getState)
  }

  /**
   * Scoped: this scope's rules, session faults, clock, scenario and journal. `{ all: true }`
   * (a client without a scope only): everything, the data back to the seed and the world clock
   * to real time. A client without a scope must say `all`: the server refuses a reset that names
   * no scope.
   */
  reset(options: { seed?: number; all?: boolean } = {}): Promise<{ scope: string }> {
    const { all, ...body } = options
    if (all && this.options.scope) {
      throw new EmuControlError(0, null, `reset({ all: true }) on a client of scope ${this.options.scope}`)
    }
    return this.control(control.reset, { body: all ? { ...body, scope: ALL_SCOPES } : body })
  }

  setSeed(seed: number): Promise<{ seed: number }> {
    return this.control(control.setSeed, { body: { seed } })
  }

  addFault(rule: FaultRuleInput): Promise<FaultRule> {
    return this.control(control.addFault, { body: rule })
  }

  /** Shorthand: `action` on calls to `path` (a glob), with the rest of the rule's options. */
  fault(
    path: string,
    action: FaultAction,
    rest: Omit<FaultRuleInput, 'match' | 'action'> = {},
  ): Promise<FaultRule> {
    return this.addFault({ match: { path }, action, ...rest })
  }

  faults(): Promise<FaultRule[]> {
    return this.control(control.listFaults)
  }

  getFault(id: string): Promise<FaultRule> {
    return this.control(control.getFault, { params: { id } })
  }

  deleteFault(id: string): Promise<void> {
    return this.control(control.deleteFault, { params: { id } }).then(() => undefined)
  }

  /**
   * Removes this scope's rules. `{ all: true }` (a client without a scope only): every scope's.
   * A client without a scope must say `all`: the server refuses a clear that names no scope.
   */
  clearFaults(options: { all?: boolean } = {}): Promise<{ removed: number }> {
    if (options.all && this.options.scope) {
      throw new EmuControlError(
        0,
        null,
        `clearFaults({ all: true }) on a client of scope ${this.options.scope}`,
      )
    }
    return this.control(control.clearFaults, options.all ? { query: { scope: ALL_SCOPES } } : {})
  }

  /**
   * Starts recording what matched calls of this scope are answered (by the upstream in proxy
   * mode); `stopRecording` writes fixtures/scenarios/<name>.json.
   */
  record(input: RecordStart): Promise<Recording> {
    return this.control(control.startRecording, { body: input })
  }

  stopRecording(): Promise<Recording> {
    return this.control(control.stopRecording)
  }

  /** Where this scope's state machines are (all, for a client without a scope). */
  states(): Promise<MachineState[]> {
    return this.control(control.listStates)
  }

  /** Moves a state machine of this scope (e.g. back to `Started`). */
  setState(name: string, state: string): Promise<MachineState> {
    return this.control(control.setState, { params: { name }, body: { state } })
  }

  /** `token` may be `any`: the next call in the scope that carries a token. */
  failSession(token: string, fault: SessionFaultKind): Promise<void> {
    return this.control(control.failSession, { params: { token, fault } }).then(() => undefined)
  }

  expireSession(token: string): Promise<void> {
    return this.failSession(token, 'expire')
  }

  revokeSession(token: string): Promise<void> {
    return this.failSession(token, 'revoke')
  }

  sessionLifetime(token: string, lifetime: SessionLifetime): Promise<void> {
    return this.control(control.sessionLifetime, { params: { token }, body: lifetime }).then(() => undefined)
  }

  clock(): Promise<ClockStateView> {
    return this.control(control.getClock)
  }

  setClock(set: ClockSet): Promise<ClockStateView> {
    return this.control(control.setClock, { body: set })
  }

  /** `force`: let the world clock move backwards (refused otherwise). */
  freezeClock(at?: number, opts: { force?: boolean } = {}): Promise<ClockStateView> {
    return this.setClock({ mode: 'frozen', ...(at === undefined ? {} : { at }), ...opts })
  }

  realClock(opts: { force?: boolean } = {}): Promise<ClockStateView> {
    return this.setClock({ mode: 'real', ...opts })
  }

  advanceClock(ms: number): Promise<ClockStateView> {
    return this.control(control.advanceClock, { body: { ms } })
  }

  /** Field tests go in short form (`name=value`, `name~=regex`, `name`, `!name`), as in a query string. */
  requests(query: JournalQuery = {}): Promise<JournalPage> {
    return this.control(control.listRequests, { query })
  }

  /**
   * "Was it called N times with a body matching Y?": the journal's answer, with up to 20 of the
   * calls that matched. `times` exactly, or `atLeast` / `atMost`; at least once when none is given.
   */
  verify(check: JournalVerify): Promise<Verification> {
    return this.control(control.verifyRequests, { body: check })
  }

  /** verify(), throwing an error that says what was expected and what was seen when it fails. */
  async expectCalled(check: JournalVerify): Promise<Verification> {
    const v = await this.verify(check)
    if (!v.ok) {
      const { times: _t, atLeast: _l, atMost: _m, ...filter } = check
      throw new Error(
        `expected ${v.expected} call(s) matching ${JSON.stringify(filter)}, journal has ${v.count}`,
      )
    }
    return v
  }

  countRequests(filter: JournalFilter = {}): Promise<number> {
    return this.control(control.countRequests, { body: filter }).then((r) => r.count)
  }

  /**
   * Polls the journal and hands over each entry once it is done (answered, reset, hung…), in
   * order of arrival, until the signal aborts.
   */
  async tail(
    onEntry: (e: JournalEntry) => void,
    opts: { intervalMs?: number; signal?: AbortSignal; filter?: JournalFilter } = {},
  ): Promise<void> {
    let cursor = (await this.requests({ limit: 1 })).lastSeq
    const shown = new Set<number>()
    while (!opts.signal?.aborted) {
      const page = await this.requests({ ...opts.filter, afterSeq: cursor, limit: 5000 })
      let open = false
      for (const e of page.entries) {
        if (e.outcome === 'pending') {
          // Still being answered: show it when it is done; don't move the cursor past it.
          open = true
          continue
        }
        if (!shown.has(e.seq)) {
          shown.add(e.seq)
          onEntry(e)
        }
        if (!open) cursor = e.seq
      }
      for (const seq of shown) if (seq <= cursor) shown.delete(seq)
      await pause(opts.intervalMs ?? 500, opts.signal)
    }
  }

  scenarios(): Promise<{ name: string; description: string }[]> {
    return this.control(control.listScenarios)
  }

  scenario(name: string): Promise<Scenario> {
    return this.control(control.getScenario, { params: { name } })
  }

  /**
   * `allowData`: in proxy mode, let steps that change data reach the upstream; `force`: let the
   * scenario's clock move the world clock backwards.
   */
  activate(
    name: string,
    params: Record<string, string> = {},
    opts: { allowData?: boolean; force?: boolean } = {},
  ): Promise<Activation> {
    return this.control(control.activateScenario, { params: { name }, body: { params, ...opts } })
  }

  /**
   * Logs a player in through the app's own /api/login (the demo player by default) and answers
   * the session token, for the session calls and for scripts. Goes through the fault layer like
   * any player's call, in this client's scope.
   */
  async login(
    phone: string = DEMO_PLAYER.phone,
    password: string = DEMO_PLAYER.password,
  ): Promise<{ token: string; playerId: number }> {
    const form = new FormData()
    form.set('phone', phone)
    form.set('password', password)
    const res = await this.doFetch(`${this.base()}/api/login`, {
      method: 'POST',
      body: form,
      headers: this.scopeHeaders(),
    })
    const text = await res.text()
    const parsed = loginAnswerSchema.safeParse(safeJson(text))
    if (!parsed.success)
      throw new EmuControlError(
        res.status,
        null,
        `POST /api/login: HTTP ${res.status}, ${text.slice(0, 200)}`,
      )
    const { code, msg, data } = parsed.data
    if (code !== 1 || !data)
      throw new EmuControlError(res.status, code, `POST /api/login: ${code} ${msg ?? ''}`)
    return { token: data.token, playerId: data.player_id }
  }

  /** SMS codes the emulator "sent" (emulator mode only). */
  sms(phone?: string): Promise<control.SmsCode[]> {
    return this.control(control.listSms, { query: phone ? { phone } : {} })
  }

  private base(): string {
    return this.options.url.replace(/\/+$/, '')
  }

  /**
   * Any control call, by its contract (shared/emu-contract/): the path filled from `params`, the
   * query and the JSON body sent as given, and the answer's data parsed with the contract's schema.
   * E.g. `emu.control(confirmDeposit, { params: { id: 'D1' } })`.
   */
  async control<E extends ControlEndpoint>(
    endpoint: E,
    input: ControlCallInput<E> = {},
  ): Promise<ControlDataOf<E>> {
    const path = `${controlPath(endpoint, input.params ?? {})}${queryString(endpoint, input.query)}`
    const what = `${endpoint.method} ${path}`
    const body: unknown = input.body
    const headers: Record<string, string> = { ...this.scopeHeaders() }
    if (this.options.adminToken) headers[ADMIN_TOKEN_HEADER] = this.options.adminToken
    if (body !== undefined) headers['content-type'] = 'application/json'
    const res = await this.doFetch(`${this.base()}${path}`, {
      method: endpoint.method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const text = await res.text()
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      throw new EmuControlError(
        res.status,
        null,
        `${what}: HTTP ${res.status}, not JSON: ${text.slice(0, 200)}`,
      )
    }
    const envelope = controlEnvelopeSchema.safeParse(json)
    if (!envelope.success) {
      throw new EmuControlError(res.status, null, `${what}: HTTP ${res.status}, not an envelope`)
    }
    if (envelope.data.code !== 1) {
      const msg = envelope.data.msg ?? ''
      throw new EmuControlError(res.status, envelope.data.code, `${what}: ${res.status} ${msg}`)
    }
    return endpoint.data.parse(envelope.data.data) as ControlDataOf<E>
  }
}

/** Waits `ms`, or less when the signal aborts first (a tail stops at once). */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve()
    const done = () => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal?.addEventListener('abort', done, { once: true })
  })
}

/**
 * A query as a query string (`?…`, or nothing): a list repeats its name. A record of field tests
 * has no query-string form, so it is refused: give it in short form instead.
 */
function queryString(endpoint: ControlEndpoint, query: object | undefined): string {
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined) continue
    if (Array.isArray(v)) for (const one of v) params.append(k, String(one))
    else if (typeof v === 'object' && v !== null) {
      throw new TypeError(`${endpoint.id}: give ${k} in short form (name=value, name~=regex, name, !name)`)
    } else params.set(k, String(v))
  }
  const qs = params.toString()
  return qs ? `?${qs}` : ''
}
