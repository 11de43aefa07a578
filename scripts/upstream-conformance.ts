import type { Endpoint } from '@shared/contract/endpoint'
import { ENDPOINTS } from '@shared/contract/registry'
import { isSessionLostCode, isSuccessCode, SUCCESS_CODES } from '@shared/envelope'
import { GAME_CODES } from '@shared/games/config'
import { z } from 'zod'
import { compareWithSchema, describeValue, type Mismatch, valueAt } from '../server/upstream/compare-answer'

/**
 * The pure part of `npm run upstream:check` (scripts/upstream-check.ts): the walk over every
 * endpoint in a safe order, and the comparison of an answer with the contract into mismatches
 * that each name the field, what the contract expects and what came.
 */

/** The envelope as the app reads it: an integer code, `msg` or `message`, and `data`. */
const envelopeShape = z.object({
  code: z.number().int(),
  msg: z.string().optional(),
  message: z.string().optional(),
  data: z.unknown(),
})

export interface Verdict {
  /** The envelope's code, when the body was one. */
  code?: number
  /** The message the answer carried. */
  msg?: string
  /** Success envelope with data as the contract says (extra fields aside). */
  conforms: boolean
  mismatches: Mismatch[]
}

/**
 * An answer against the contract: the HTTP status, then the envelope, then `data` with the
 * endpoint's schema. A refusal does not conform: every call the walk makes is one that should
 * succeed on a working account.
 */
export function judgeAnswer(endpoint: Endpoint, status: number, body: unknown): Verdict {
  const mismatches: Mismatch[] = []
  if (status < 200 || status >= 300)
    mismatches.push({ path: '(http status)', expected: '2xx', got: String(status) })
  const envelope = envelopeShape.safeParse(body)
  if (!envelope.success) {
    const got = typeof body === 'string' ? `not JSON: ${describeValue(body)}` : describeValue(body)
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      mismatches.push({ path: '(body)', expected: 'a JSON envelope {code, msg, data}', got })
    } else {
      mismatches.push(...compareWithSchema(envelopeShape, body))
    }
    return { conforms: false, mismatches }
  }
  const { code, data } = envelope.data
  const msg = envelope.data.msg ?? envelope.data.message
  if (msg === undefined) mismatches.push({ path: 'msg', expected: 'string (or message)', got: 'missing' })
  const withCode = { code, ...(msg === undefined ? {} : { msg }) }
  if (!isSuccessCode(code)) {
    const meaning = isSessionLostCode(code) ? 'session lost' : 'refused'
    mismatches.push({
      path: 'code',
      expected: `a success code (${SUCCESS_CODES.join(' or ')})`,
      got: `${code} (${meaning}${msg ? `: ${msg}` : ''})`,
    })
    return { ...withCode, conforms: false, mismatches }
  }
  for (const m of compareWithSchema(envelopeShape, body)) mismatches.push(m)
  mismatches.push(...compareWithSchema(endpoint.data, data, 'data'))
  return { ...withCode, conforms: !mismatches.some((m) => !m.extra), mismatches }
}

// ── the walk ─────────────────────────────────────────────────────────────────────────────────────

export interface Credentials {
  phone: string
  password: string
  /** The account's payment password: the writes that need it are skipped without it. */
  payPassword?: string
}

/** What the walk learns as it goes, for the calls that need an id or a value from an earlier answer. */
export interface WalkState {
  readonly credentials: Credentials
  /** Where to find a fresh TRON address for a bind (injected, so tests and runs differ). */
  readonly newAddress: () => string
  token?: string
  playerId?: number
  /** `data` of each step's answer, by step name, whether or not it conformed. */
  readonly answers: Map<string, unknown>
}

export type StepKind = 'login' | 'read' | 'write' | 'never'

export interface CallInput {
  query?: Record<string, unknown>
  body?: Record<string, unknown>
}

export interface Step {
  /** Unique within the plan: the endpoint id, with a suffix when it is called twice. */
  readonly name: string
  readonly endpoint: Endpoint
  readonly kind: StepKind
  /** Why a write is safe on a test account, or why the endpoint is never called. */
  readonly note: string
  /** The call's input from what the walk knows, or why it cannot be made. */
  readonly input: (state: WalkState) => CallInput | { skip: string }
}

const byId = new Map(ENDPOINTS.map((e) => [e.id, e]))
function endpoint(id: string): Endpoint {
  const e = byId.get(id)
  if (!e) throw new Error(`no endpoint ${id} in the contract`)
  return e
}

// Reading earlier answers defensively: an upstream that differs must not stop the walk.
const field = (value: unknown, ...path: (string | number)[]): unknown => valueAt(value, path)
const asNumber = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined
const asString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined)

const PAGE = { page: 1, page_size: 5 }
const GAME_DEFAULT = GAME_CODES[0]
const LABEL = 'conformance check'

function game(state: WalkState): string {
  const listed = asString(field(state.answers.get('listGames'), 'list', 0, 'game'))
  return listed ?? GAME_DEFAULT
}

const needsSession = (state: WalkState, input: CallInput): CallInput | { skip: string } =>
  state.token ? input : { skip: 'no session: the login failed' }

function read(id: string, input: (state: WalkState) => CallInput | { skip: string } = () => ({})): Step {
  const e = endpoint(id)
  return {
    name: id,
    endpoint: e,
    kind: 'read',
    note: e.method === 'GET' ? 'read' : 'read-only call',
    input: (state) => {
      const value = input(state)
      return e.auth && !('skip' in value) ? needsSession(state, value) : value
    },
  }
}

function write(
  name: string,
  id: string,
  note: string,
  input: (state: WalkState) => CallInput | { skip: string },
): Step {
  return {
    name,
    endpoint: endpoint(id),
    kind: 'write',
    note,
    input: (state) => {
      const value = input(state)
      return 'skip' in value ? value : needsSession(state, value)
    },
  }
}

const never = (id: string, note: string): Step => ({
  name: id,
  endpoint: endpoint(id),
  kind: 'never',
  note,
  input: () => ({ skip: note }),
})

const needPayPassword = (state: WalkState): { skip: string } | null =>
  state.credentials.payPassword ? null : { skip: 'needs --pay-password' }

/** The id the bind step created, found by its address in the bind's answer. */
function boundWalletId(state: WalkState): number | undefined {
  const address = asString(state.answers.get('bindWallet:address'))
  const list = field(state.answers.get('bindWallet'), 'list')
  if (!Array.isArray(list)) return undefined
  return asNumber(field(list.find((w) => field(w, 'address') === address) ?? null, 'id'))
}

function defaultWalletId(state: WalkState): number | undefined {
  const list = field(state.answers.get('bindWallet'), 'list')
  if (!Array.isArray(list)) return undefined
  return asNumber(field(list.find((w) => field(w, 'is_default') === true) ?? null, 'id'))
}

/**
 * Every endpoint of the contract, in the order the check calls them: the login first; then every
 * read; then, only when writes are allowed, the writes that are harmless on a test account or
 * undone straight after (each undo follows its write); the logout last. Endpoints that move money,
 * create what cannot be removed or lock the account are never called.
 */
export function walkPlan(): Step[] {
  return [
    {
      name: 'login',
      endpoint: endpoint('login'),
      kind: 'login',
      note: 'logs in: the session every other call uses',
      input: (state) => ({ body: { phone: state.credentials.phone, password: state.credentials.password } }),
    },
    read('userInfo', (s) => (s.playerId ? { query: { player_id: s.playerId } } : { skip: 'no player id' })),
    read('getBalance', (s) => (s.playerId ? { query: { player_id: s.playerId } } : { skip: 'no player id' })),
    read('announcement'),
    read('getPayInfoUsdt'),
    read('getDepositHistory', () => ({ query: PAGE })),
    read('getDepositOrder', (s) => {
      const id = asNumber(field(s.answers.get('getDepositHistory'), 'list', 0, 'id'))
      return id ? { query: { id } } : { skip: 'the account has no top-up order to read' }
    }),
    read('listWallets'),
    read('getWithdrawConfig'),
    read('getWithdrawalHistory', () => ({ query: PAGE })),
    read('changeType'),
    read('fundFlow', () => ({ query: PAGE })),
    read('listGames'),
    read('currentRound', (s) => ({ query: { game: game(s) } })),
    read('gameResults', (s) => ({ query: { game: game(s), ...PAGE } })),
    read('betHistory', () => ({ query: PAGE })),
    read('gameRules', (s) => ({ query: { game: game(s) } })),
    read('gameCommitment'),
    read('verifyRound', (s) => {
      const round = asString(field(s.answers.get('gameResults'), 'list', 0, 'round_id'))
      return round ? { query: { game: game(s), round_id: round } } : { skip: 'no drawn round to verify' }
    }),
    read('betAddresses'),
    read('transferHistory', () => ({ query: PAGE })),
    read('agentInfo'),
    read('agentQrcode'),
    read('agentTurnover'),
    read('agentChildSearch', () => ({ query: PAGE })),
    read('agentRebateConfig'),
    read('rebateSummary'),
    read('rebateHistory', () => ({ query: PAGE })),
    read('activityList'),
    read('activityDetail', (s) => {
      const id = asNumber(field(s.answers.get('activityList'), 'list', 0, 'id'))
      return id ? { query: { id } } : { skip: 'no activity to read' }
    }),
    read('activityImages'),
    read('prizePool'),
    read('newbieGuide'),
    read('studyArticles'),
    read('networkHelp'),
    read('ping'),
    read('serviceInfo'),
    read('thirdPartyPages'),
    read('protectionLimits'),
    read('realityCheck'),
    read('netPosition'),

    write('sendSms', 'sendSms', 'sends a code to the test account’s own phone', () => ({
      body: { purpose: 'pay_password' },
    })),
    write(
      'bindWallet',
      'bindWallet',
      'binds a fresh withdrawal address, which the check then deletes',
      (s) => {
        const missing = needPayPassword(s)
        if (missing) return missing
        const wallets = s.answers.get('listWallets')
        const count = field(wallets, 'list')
        const max = asNumber(field(wallets, 'max_count'))
        if (Array.isArray(count) && max !== undefined && count.length >= max) {
          return { skip: 'the account already has as many withdrawal addresses as it may' }
        }
        const address = s.newAddress()
        s.answers.set('bindWallet:address', address)
        return { body: { address, label: LABEL, pay_password: s.credentials.payPassword, is_default: '0' } }
      },
    ),
    write(
      'setDefaultWallet',
      'setDefaultWallet',
      'makes the default address the default again (no change)',
      (s) => {
        const id = defaultWalletId(s)
        return id ? { body: { id } } : { skip: 'no bound address (the bind did not succeed)' }
      },
    ),
    write('deleteWallet', 'deleteWallet', 'deletes the address the check bound', (s) => {
      const id = boundWalletId(s)
      return id ? { body: { id } } : { skip: 'nothing to undo (the bind did not succeed)' }
    }),
    write(
      'updatePaymentPassword',
      'updatePaymentPassword',
      'sets the payment password to the one it already has, once a bind with it has succeeded',
      (s) => {
        const missing = needPayPassword(s)
        if (missing) return missing
        if (boundWalletId(s) === undefined) {
          return { skip: 'the payment password was not confirmed (the bind did not succeed)' }
        }
        return { body: { pay_password: s.credentials.payPassword, login_password: s.credentials.password } }
      },
    ),
    write(
      'bindBetAddress',
      'bindBetAddress',
      'binds a fresh bet address, which the check then deletes',
      (s) => ({
        body: { address: s.newAddress(), label: LABEL },
      }),
    ),
    write('updateBetAddress', 'updateBetAddress', 'relabels the bet address the check bound', (s) => {
      const id = asNumber(field(s.answers.get('bindBetAddress'), 'id'))
      return id ? { body: { id, label: `${LABEL} 2` } } : { skip: 'the bind did not succeed' }
    }),
    write('deleteBetAddress', 'deleteBetAddress', 'deletes the address the check bound', (s) => {
      const id = asNumber(field(s.answers.get('bindBetAddress'), 'id'))
      return id ? { body: { id } } : { skip: 'nothing to undo (the bind did not succeed)' }
    }),
    write(
      'setRealityCheck',
      'setRealityCheck',
      'changes the reminder interval, which the check then sets back',
      (s) => {
        const now = asNumber(field(s.answers.get('realityCheck'), 'interval_minutes'))
        if (now === undefined) return { skip: 'the current interval is unknown, so it could not be set back' }
        return { body: { interval_minutes: now === 30 ? 15 : 30 } }
      },
    ),
    write('setRealityCheck:undo', 'setRealityCheck', 'sets the reminder interval back', (s) => {
      const was = asNumber(field(s.answers.get('realityCheck'), 'interval_minutes'))
      if (was === undefined || !s.answers.has('setRealityCheck')) return { skip: 'nothing to undo' }
      return { body: { interval_minutes: was } }
    }),
    write('acknowledgeRealityCheck', 'acknowledgeRealityCheck', 'only moves the next reminder', () => ({})),

    never('register', 'creates a player, which cannot be removed'),
    never('changePassword', 'changes the login password; a failed undo would lock the account out'),
    never('usdtPay', 'creates a top-up order, which cannot be removed'),
    never('withdraw', 'moves money'),
    never('exchange', 'moves money'),
    never('placeBets', 'moves money'),
    never('sendTransferBet', 'moves money'),
    never('rebateClaim', 'moves money (once a day)'),
    never('setProtectionLimit', 'a limit cannot be lifted at once (24 h cooling-off)'),
    never('startExclusion', 'locks the account out for 24 hours or more'),
    never('excludedWithdraw', 'moves money, and only works during an exclusion'),
    never('excludedAccount', 'only works during an exclusion; counts against the login password’s lock'),
    never('excludedSms', 'only works during an exclusion; counts against the login password’s lock'),
    never('excludedSetup', 'binds an address and sets the payment password, only during an exclusion'),
    never('resetPassword', 'changes the login password and ends every session of the account'),

    write('logout', 'logout', 'ends the check’s own session', () => ({})),
  ]
}
