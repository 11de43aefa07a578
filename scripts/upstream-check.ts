import { randomBytes } from 'node:crypto'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { IDEMPOTENCY_HEADER, REQUEST_TIMEOUT_MS, TOKEN_HEADER } from '@shared/constants'
import type { Endpoint } from '@shared/contract/endpoint'
import { encodeBody, pathWithQuery } from '@shared/contract/request'
import { tronAddressFromAccountId } from '@shared/tron'
import { encodeCall } from '../server/upstream/adapted-call'
import {
  type Adapter,
  AdapterError,
  type Fields,
  loadAdapter as loadAdapterFile,
} from '../server/upstream/adapter'
import { describeValue, type Mismatch } from '../server/upstream/compare-answer'
import {
  type CallInput,
  type Credentials,
  judgeAnswer,
  type Step,
  type StepKind,
  type WalkState,
  walkPlan,
} from './upstream-conformance'

/**
 * `npm run upstream:check -- --url URL --phone P --password W [--pay-password N] [--allow-writes]
 * [--json] [--adapter FILE]`: calls every endpoint of the contract on a live upstream in a safe
 * order (scripts/upstream-conformance.ts), compares each answer with the contract and prints what
 * differs. Exits 0 only when every call it made conforms. docs/upstream.md describes the contract.
 */

/**
 * The adapter between an upstream that differs and the contract (UPSTREAM_ADAPTER, the same file
 * proxy mode reads: docs/upstream-adapter.md): calls go out in the upstream's shape, answers are
 * translated back before they are judged, and each row says how many differences it covered.
 */
export type UpstreamAdapter = Adapter
export interface CheckOptions {
  /** The upstream's origin (the server that answers `/api/...`). */
  url: string
  credentials: Credentials
  allowWrites: boolean
  adapter?: UpstreamAdapter
  timeoutMs?: number
  fetch?: typeof fetch
  /** A fresh TRON address for each bind; random by default. */
  newAddress?: () => string
}

export type Outcome = 'answered' | 'no answer' | 'skipped'

export interface CheckRow {
  step: string
  endpoint: string
  method: string
  path: string
  kind: StepKind
  outcome: Outcome
  status?: number
  code?: number
  msg?: string
  /** null when nothing was called. */
  conforms: boolean | null
  mismatches: Mismatch[]
  /** Why it was skipped or got no answer; what a write does. */
  note: string
}

export interface CheckReport {
  url: string
  allowWrites: boolean
  rows: CheckRow[]
  called: number
  conforming: number
  skipped: number
  /** Every call made conforms (and at least one was made). */
  ok: boolean
}

const randomAddress = () => tronAddressFromAccountId(randomBytes(20))

/** A call's input as the proxy reads it: every field a string. */
function fieldsOfInput(input: CallInput): Fields {
  const fields: Fields = {}
  for (const part of [input.query, input.body]) {
    if (!part || typeof part !== 'object') continue
    for (const [k, v] of Object.entries(part))
      if (v !== undefined) fields[k] = typeof v === 'string' ? v : String(v)
  }
  return fields
}

async function call(
  options: CheckOptions,
  state: WalkState,
  endpoint: Endpoint,
  input: CallInput,
): Promise<{ status: number; body: unknown; raw: unknown } | { error: string }> {
  let headers = new Headers({ accept: 'application/json' })
  if (state.token) headers.set(TOKEN_HEADER, state.token)
  if (endpoint.idempotent) headers.set(IDEMPOTENCY_HEADER, randomBytes(16).toString('hex'))
  const base = options.url.replace(/\/$/, '')
  const fields = fieldsOfInput(input)
  let method: string = endpoint.method
  let url: string
  let body: string | Uint8Array | undefined
  if (options.adapter) {
    // Renamed and set as the file says (`token` → `Authorization: Bearer …`), as proxy mode sends them.
    const bag: Record<string, string> = Object.fromEntries(headers)
    const fromHeaders = options.adapter.headers(bag)
    headers = new Headers(bag)
    const translated = options.adapter.request(endpoint, fields, fromHeaders)
    const encoded = await encodeCall(translated)
    method = translated.method
    url = `${base}${encoded.path}`
    if (encoded.body) body = new Uint8Array(encoded.body)
    if (encoded.contentType) headers.set('content-type', encoded.contentType)
  } else {
    const encoded = encodeBody(endpoint, input.body ?? (endpoint.method === 'GET' ? undefined : {}))
    if (typeof encoded === 'string') headers.set('content-type', 'application/json')
    body = encoded as string | undefined
    url = `${base}${pathWithQuery(endpoint, input.query)}`
  }
  const doFetch = options.fetch ?? fetch
  let status: number
  let text: string
  try {
    const res = await doFetch(url, {
      method,
      headers,
      body: (body ?? null) as BodyInit | null,
      signal: AbortSignal.timeout(options.timeoutMs ?? REQUEST_TIMEOUT_MS),
    })
    status = res.status
    text = await res.text()
  } catch (error) {
    const name = error instanceof Error ? error.name : ''
    if (name === 'TimeoutError')
      return { error: `no answer within ${options.timeoutMs ?? REQUEST_TIMEOUT_MS} ms` }
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : ''
    return { error: `${error instanceof Error ? error.message : String(error)}${cause}` }
  }
  let parsed: unknown = text
  try {
    parsed = JSON.parse(text)
  } catch {
    // Not JSON: judged as such below.
  }
  const answer =
    options.adapter && typeof parsed === 'object' && parsed !== null
      ? options.adapter.answer(endpoint, parsed, fields)
      : parsed
  return { status, body: answer, raw: parsed }
}

/** Walks the plan against the upstream and judges every answer. */
export async function runCheck(options: CheckOptions): Promise<CheckReport> {
  const state: WalkState = {
    credentials: options.credentials,
    newAddress: options.newAddress ?? randomAddress,
    answers: new Map(),
  }
  const rows: CheckRow[] = []
  for (const step of walkPlan()) {
    const base = {
      step: step.name,
      endpoint: step.endpoint.id,
      method: step.endpoint.method,
      path: step.endpoint.path,
      kind: step.kind,
    }
    const skip = (note: string) =>
      rows.push({ ...base, outcome: 'skipped', conforms: null, mismatches: [], note })
    if (step.kind === 'never') {
      skip(`never called: ${step.note}`)
      continue
    }
    if (step.kind === 'write' && !options.allowWrites) {
      skip(`a write (${step.note}): run with --allow-writes`)
      continue
    }
    const input = step.input(state)
    if ('skip' in input) {
      skip(input.skip)
      continue
    }
    const answer = await call(options, state, step.endpoint, input)
    if ('error' in answer) {
      rows.push({
        ...base,
        outcome: 'no answer',
        conforms: false,
        mismatches: [],
        note: answer.error,
      })
      continue
    }
    const verdict = judgeAnswer(step.endpoint, answer.status, answer.body)
    // What the adapter covers: the differences of the untranslated answer that are gone after it.
    const covered = options.adapter
      ? judgeAnswer(step.endpoint, answer.status, answer.raw).mismatches.length - verdict.mismatches.length
      : 0
    const data =
      answer.body && typeof answer.body === 'object' ? (answer.body as { data?: unknown }).data : undefined
    if (verdict.code !== undefined && [1, 200].includes(verdict.code)) state.answers.set(step.name, data)
    after(step, state, data)
    rows.push({
      ...base,
      outcome: 'answered',
      status: answer.status,
      ...(verdict.code === undefined ? {} : { code: verdict.code }),
      ...(verdict.msg === undefined ? {} : { msg: verdict.msg }),
      conforms: verdict.conforms,
      mismatches: verdict.mismatches,
      note:
        covered > 0
          ? `${step.note ? `${step.note}; ` : ''}the adapter covers ${covered} difference${covered === 1 ? '' : 's'}`
          : step.note,
    })
  }
  const called = rows.filter((r) => r.outcome !== 'skipped')
  const conforming = called.filter((r) => r.conforms === true).length
  return {
    url: options.url,
    allowWrites: options.allowWrites,
    rows,
    called: called.length,
    conforming,
    skipped: rows.length - called.length,
    ok: called.length > 0 && conforming === called.length,
  }
}

/** What the walk keeps from an answer beyond its data: the session, from the login. */
function after(step: Step, state: WalkState, data: unknown): void {
  if (step.kind !== 'login' || !state.answers.has(step.name)) return
  const token = (data as { token?: unknown } | undefined)?.token
  const playerId = (data as { player_id?: unknown } | undefined)?.player_id
  if (typeof token === 'string' && token) state.token = token
  if (typeof playerId === 'number') state.playerId = playerId
}

// ── output ───────────────────────────────────────────────────────────────────────────────────────

function answerText(row: CheckRow): string {
  if (row.outcome === 'skipped') return 'skipped'
  if (row.outcome === 'no answer') return 'no answer'
  return row.code === undefined ? `HTTP ${row.status}` : `HTTP ${row.status} / code ${row.code}`
}

const conformsText = (row: CheckRow) => (row.conforms === null ? '—' : row.conforms ? 'yes' : 'NO')

function mismatchLine(m: Mismatch): string {
  const times = m.times && m.times > 1 ? ` (${m.times} items)` : ''
  if (m.extra) return `${m.path}: not in the contract (the app ignores it), got ${m.got}${times}`
  return `${m.path}: expected ${m.expected}, got ${m.got}${times}`
}

/** The report as a table, a line per step, each mismatch indented below its step. */
export function formatReport(report: CheckReport): string {
  const cells = report.rows.map((r) => [r.step, `${r.method} ${r.path}`, answerText(r), conformsText(r)])
  const head = ['endpoint', 'call', 'answer', 'conforms']
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)))
  const line = (c: string[]) =>
    c
      .map((text, i) => text.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd()
  const out = [line(head), line(widths.map((w) => '-'.repeat(w)))]
  report.rows.forEach((row, i) => {
    out.push(line(cells[i] ?? []))
    if (row.outcome === 'skipped' || row.outcome === 'no answer') out.push(`    ${row.note}`)
    if (
      row.outcome === 'answered' &&
      !row.conforms &&
      row.msg &&
      row.code !== undefined &&
      ![1, 200].includes(row.code)
    ) {
      out.push(`    msg: ${describeValue(row.msg)}`)
    }
    for (const m of row.mismatches) out.push(`    ${mismatchLine(m)}`)
  })
  out.push(
    '',
    `${report.called} called, ${report.conforming} conform, ${report.called - report.conforming} do not, ${report.skipped} skipped`,
  )
  return `${out.join('\n')}\n`
}

// ── command line ─────────────────────────────────────────────────────────────────────────────────

export const USAGE = `usage: npm run upstream:check -- --url URL --phone PHONE --password PASSWORD [options]

Calls every endpoint of the contract on a live upstream and compares each answer with it
(docs/upstream.md). Reads only, unless --allow-writes.

  --url URL              the upstream's origin; calls go to URL/api/...
  --phone, --password    a test account to log in with
  --pay-password N       its payment password: the writes that need one (bind an address) run too
  --allow-writes         also call the writes that are harmless on a test account or undone at once
  --json                 print the report as JSON (for CI)
  --adapter FILE         the adapter file between the upstream and the contract (UPSTREAM_ADAPTER,
                         JSON or YAML: docs/upstream-adapter.md); calls go out in the upstream's shape
  --timeout MS           time for one call (default ${REQUEST_TIMEOUT_MS})

       npm run upstream:check -- --adapter FILE

With --adapter alone, only reads and checks the adapter file (each mistake with its line) and calls
nothing.

Exit status 0 when every call made conforms (or the file alone is valid), 1 when one does not, 2 on
bad arguments or an adapter file that is not valid.`

export interface CliArgs {
  url: string
  credentials: Credentials
  allowWrites: boolean
  json: boolean
  adapterFile?: string
  timeoutMs?: number
}

/** The command line, or an error message naming what is wrong. */
export function parseCheckArgs(
  argv: readonly string[],
): CliArgs | { adapterOnly: string } | { error: string } {
  let values: Record<string, string | boolean | undefined>
  try {
    values = parseArgs({
      args: [...argv],
      options: {
        url: { type: 'string' },
        phone: { type: 'string' },
        password: { type: 'string' },
        'pay-password': { type: 'string' },
        'allow-writes': { type: 'boolean' },
        json: { type: 'boolean' },
        adapter: { type: 'string' },
        timeout: { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    }).values
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) }
  }
  if (values.help) return { error: '' }
  if (typeof values.adapter === 'string' && values.url === undefined) {
    // Only the adapter file is checked (no upstream is called).
    const others = Object.keys(values).filter((k) => k !== 'adapter' && values[k] !== undefined)
    if (others.length > 0) return { error: `--${others[0]} needs --url` }
    return { adapterOnly: values.adapter }
  }
  const url = values.url
  if (typeof url !== 'string' || !/^https?:\/\/[^/]+/.test(url))
    return { error: '--url must be an http(s) URL' }
  if (typeof values.phone !== 'string' || !values.phone) return { error: '--phone is required' }
  if (typeof values.password !== 'string' || !values.password) return { error: '--password is required' }
  const timeout = values.timeout === undefined ? undefined : Number(values.timeout)
  if (timeout !== undefined && !(Number.isInteger(timeout) && timeout > 0)) {
    return { error: '--timeout must be a positive number of milliseconds' }
  }
  const payPassword = values['pay-password']
  return {
    url,
    credentials: {
      phone: values.phone,
      password: values.password,
      ...(typeof payPassword === 'string' ? { payPassword } : {}),
    },
    allowWrites: values['allow-writes'] === true,
    json: values.json === true,
    ...(typeof values.adapter === 'string' ? { adapterFile: values.adapter } : {}),
    ...(timeout === undefined ? {} : { timeoutMs: timeout }),
  }
}

/** The adapter file (`--adapter FILE`, JSON or YAML, docs/upstream-adapter.md); none without a file. */
export function loadAdapter(file: string | undefined): UpstreamAdapter | undefined {
  return file ? loadAdapterFile(file) : undefined
}

export async function main(
  argv: readonly string[],
  out: (text: string) => void = (t) => process.stdout.write(t),
) {
  const args = parseCheckArgs(argv)
  if ('error' in args) {
    out(`${args.error ? `${args.error}\n\n` : ''}${USAGE}\n`)
    return args.error ? 2 : 0
  }
  let adapter: UpstreamAdapter | undefined
  try {
    adapter = loadAdapter('adapterOnly' in args ? args.adapterOnly : args.adapterFile)
  } catch (error) {
    if (!(error instanceof AdapterError)) throw error
    out(`the adapter file is not valid:\n${error.message}\n`)
    return 2
  }
  if ('adapterOnly' in args) {
    const count = Object.keys(adapter?.file.endpoints ?? {}).length
    out(`${args.adapterOnly}: valid (${count} endpoint${count === 1 ? '' : 's'} adapted)\n`)
    return 0
  }
  const report = await runCheck({
    url: args.url,
    credentials: args.credentials,
    allowWrites: args.allowWrites,
    ...(adapter ? { adapter } : {}),
    ...(args.timeoutMs === undefined ? {} : { timeoutMs: args.timeoutMs }),
  })
  out(args.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report))
  return report.ok ? 0 : 1
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = await main(process.argv.slice(2))
}
