import { randomInt } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { SCOPE_HEADER, TOKEN_HEADER } from '@shared/constants'
import type { Endpoint } from '@shared/contract/endpoint'
import { ENDPOINTS } from '@shared/contract/registry'
import { type ControlEndpoint, matchesControlPath } from '@shared/emu-contract/control-endpoint'
import { CONTROL_ENDPOINTS } from '@shared/emu-contract/registry'
import {
  type Activation,
  ADMIN_TOKEN_HEADER,
  ANY_SESSION,
  type ClockSet,
  faultRuleInputSchema,
  type Scenario,
  type ScenarioStep,
  scenarioSchema,
} from '@shared/emu-control'
import { CODE, isSuccessCode } from '@shared/envelope'
import type { FastifyInstance } from 'fastify'
import type { z } from 'zod'
import type { EmuClock } from '../emulator/clock'
import { ApiError } from '../http/api-error'
import { INTERNAL_HEADER } from './admin-access'
import { assertSessionToken } from './session-tokens'

/** A scenario file that does not parse, named with its file. */
export class ScenarioFileError extends Error {
  override name = 'ScenarioFileError'
}

export async function listScenarioFiles(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((f) => f.endsWith('.json')).sort()
  } catch (err) {
    if (err instanceof Error && 'code' in err && err.code === 'ENOENT') return []
    throw err
  }
}

export async function loadScenarioFile(path: string): Promise<Scenario> {
  let raw: unknown
  try {
    raw = JSON.parse(await readFile(path, 'utf8'))
  } catch (err) {
    throw new ScenarioFileError(`${path}: ${err instanceof Error ? err.message : String(err)}`)
  }
  const parsed = scenarioSchema.safeParse(raw)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`)
    throw new ScenarioFileError(`${path}:\n${lines.join('\n')}`)
  }
  return parsed.data
}

/** Scenarios are read from disk at each call, so an edited file counts without a restart. */
export async function loadScenarios(dir: string): Promise<Scenario[]> {
  const files = await listScenarioFiles(dir)
  return Promise.all(files.map((f) => loadScenarioFile(join(dir, f))))
}

export async function findScenario(dir: string, name: string): Promise<Scenario | undefined> {
  if (!/^[a-z0-9-]+$/.test(name)) return undefined
  const files = await listScenarioFiles(dir)
  if (!files.includes(`${name}.json`)) return undefined
  const scenario = await loadScenarioFile(join(dir, `${name}.json`))
  if (scenario.name !== name) throw new ScenarioFileError(`${name}.json names itself ${scenario.name}`)
  return scenario
}

type Vars = Record<string, string>

/** `{{name}}` → the variable's value; an unknown name stops the activation. */
export function fillTemplate(text: string, vars: Vars): string {
  return text.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (_all, name: string) => {
    const value = vars[name]
    if (value === undefined) throw new ApiError(CODE.invalidInput, `场景变量未定义: ${name}`, 400)
    return value
  })
}

function fillDeep(value: unknown, vars: Vars): unknown {
  if (typeof value === 'string') return fillTemplate(value, vars)
  if (Array.isArray(value)) return value.map((v) => fillDeep(v, vars))
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillDeep(v, vars)]))
  }
  return value
}

const fillRecord = (record: Record<string, string>, vars: Vars): Record<string, string> =>
  Object.fromEntries(Object.entries(record).map(([k, v]) => [k, fillTemplate(v, vars)]))

/** `data.list.0.id` into a parsed JSON answer. */
export function pick(value: unknown, path: string): unknown {
  let cur: unknown = value
  for (const key of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined
    cur = (cur as Record<string, unknown>)[key]
  }
  return cur
}

function multipartBody(fields: Record<string, string>): { payload: string; type: string } {
  const boundary = `----emu${randomInt(1e9).toString(16)}`
  const parts = Object.entries(fields).map(
    ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
  )
  return {
    payload: `${parts.join('')}--${boundary}--\r\n`,
    type: `multipart/form-data; boundary=${boundary}`,
  }
}

const SECRET_VAR = /token/i

export interface ActivateOptions {
  readonly scope: string | null
  readonly params: Record<string, string>
  readonly adminToken: string | undefined
  readonly emulated: boolean
  /** Proxy mode: steps that change data may reach the upstream. */
  readonly allowData?: boolean | undefined
  /** The scenario's clock may move the world clock backwards. */
  readonly force?: boolean | undefined
}

/**
 * Applies a scenario in one go. Everything that can be checked is checked before the first step
 * runs (variables, each step against its contract, proxy-mode limits, rules, clock, session
 * tokens); then the data reset it asks for, the steps, and only once they all succeeded the
 * scope's set-up is replaced: the old rules, session faults and scenario stay until the new ones
 * are in place. Steps skip the fault layer, so no rule, old or new, breaks the set-up.
 *
 * When a step fails all the same (the upstream refuses a withdrawal…), what the earlier steps did
 * is undone where an undo exists (`undoOf`), newest first, and the refusal says what was undone
 * and exactly what remains.
 */
export async function activateScenario(
  app: FastifyInstance,
  clock: EmuClock,
  scenario: Scenario,
  opts: ActivateOptions,
): Promise<Activation> {
  const { scope } = opts
  const faults = app.faults
  const params = { ...scenario.params, ...opts.params }
  // The scope's own clock is made only when the scenario sets or moves it.
  const target = () => (scope === null ? clock : clock.forScope(scope))
  // All or nothing: every step is checked before the first one runs (or touches an upstream).
  const problems = checkScenario(scenario, Object.keys(params), opts)
  const rules = scenario.rules.map((rule) => ({
    ...rule,
    seed: rule.seed ?? scenario.seed,
    label: rule.label ?? scenario.name,
    ...(scope === null ? {} : { scope }),
  }))
  for (const [i, rule] of rules.entries()) {
    const parsed = faultRuleInputSchema.safeParse(rule)
    if (!parsed.success)
      problems.push(`规则 ${i + 1} 无效: ${parsed.error.issues.map((x) => x.message).join('; ')}`)
  }
  if (scenario.clock) {
    const problem = clockProblem(
      clock,
      { ...scenario.clock, ...(opts.force ? { force: true } : {}) },
      scope === null,
    )
    if (problem) problems.push(problem)
  }
  for (const s of scenario.sessions) {
    if (namesIn(s.token).length > 0) continue
    try {
      assertSessionToken(app, s.token, opts.emulated)
    } catch (err) {
      problems.push(`会话 ${s.token}: ${err instanceof Error ? err.message : String(err)}`)
    }
  }
  if (problems.length > 0) {
    throw new ApiError(
      CODE.conflict,
      `场景 ${scenario.name} 未执行，没有任何改动：\n${problems.join('\n')}`,
      409,
    )
  }
  if (scope === null && scenario.reset) {
    clock.real()
    if (opts.emulated) await app.emu.reset()
  }

  const builtIn: Vars = {
    scope: scope ?? '',
    now: String(clock.nowFor(scope)),
    uniquePhone: `17${String(randomInt(1e9)).padStart(9, '0')}`,
  }
  // Parameters may use the built-ins, e.g. a default phone of "{{uniquePhone}}".
  const vars: Vars = { ...builtIn }
  for (const [k, v] of Object.entries(params)) vars[k] = fillTemplate(v, builtIn)
  const steps: Activation['steps'] = []
  const done: StepDone[] = []
  let sessionTokens: string[]
  try {
    for (const [i, step] of scenario.steps.entries()) {
      const ran = await runStep(app, step, i, vars, opts)
      done.push(ran)
      if (ran.failure) throw ran.failure
      steps.push({ name: ran.name, status: ran.status, code: ran.code })
    }
    sessionTokens = scenario.sessions.map((s) => fillTemplate(s.token, vars))
    for (const token of sessionTokens) assertSessionToken(app, token, opts.emulated)
    // The clock first: the one part of the new set-up that can still be refused.
    if (scenario.clock) {
      setClock(target(), opts.force ? { ...scenario.clock, force: true } : scenario.clock, scope === null)
    }
  } catch (err) {
    const message = err instanceof ApiError ? err.message : String(err)
    const undo = await undoSteps(app, done, opts)
    const reset = scope === null && scenario.reset && opts.emulated ? '\n数据已按场景的 reset 回到种子。' : ''
    throw new ApiError(CODE.conflict, `${message}\n${undo}${reset}`, 409)
  }

  // Everything ran: the new set-up replaces the scope's old one (or the unscoped one); other
  // scopes keep theirs.
  faults.clearSetup(scope)
  if (scenario.advanceMs) target().advance(scenario.advanceMs)
  const added: string[] = []
  for (const rule of rules) added.push(faults.rules.add(rule, clock.nowFor(scope)).id)
  for (const [i, s] of scenario.sessions.entries()) {
    const token = sessionTokens[i] ?? ANY_SESSION
    if (s.fault) faults.failSession(token, s.fault, scope)
    if (s.lifetime) faults.limitSession(token, s.lifetime, scope)
  }
  faults.setScenario(scope, scenario.name)

  const shown = Object.fromEntries(
    Object.entries(vars).map(([k, v]) => [k, SECRET_VAR.test(k) ? '[redacted]' : v]),
  )
  return { scenario: scenario.name, scope, vars: shown, rules: added, steps }
}

const BUILT_INS = ['scope', 'now', 'uniquePhone']

/** Control calls the server answers in both modes; every other /__emu call needs the emulator. */
const CONTROL_IN_BOTH_MODES =
  /^\/__emu\/(state|reset|seed|faults|sessions|clock|states|requests|scenarios)(\/|\?|$)/

/** A step that changes data: anything but a GET, except logging in. */
export const isDataStep = (step: ScenarioStep): boolean =>
  step.method !== 'GET' && !/^\/api\/login(\?|$)/.test(step.url)

const namesIn = (value: unknown): string[] => {
  const text = typeof value === 'string' ? value : JSON.stringify(value ?? null)
  return [...text.matchAll(/\{\{\s*([\w.-]+)\s*\}\}/g)].map((m) => m[1] ?? '')
}

/**
 * What would stop a scenario part-way, found before anything runs: variables no parameter,
 * built-in or earlier step provides; in proxy mode, steps that change data on the real upstream
 * (unless allowed) and steps that need the emulator.
 */
export function checkScenario(
  scenario: Scenario,
  paramNames: readonly string[],
  opts: Pick<ActivateOptions, 'emulated' | 'allowData'>,
): string[] {
  const problems: string[] = []
  const known = new Set([...BUILT_INS, ...paramNames])
  for (const v of Object.values(scenario.params)) {
    for (const n of namesIn(v)) if (!BUILT_INS.includes(n)) problems.push(`参数默认值用到未定义的变量 ${n}`)
  }
  for (const [i, step] of scenario.steps.entries()) {
    const name = `步骤 ${i + 1} (${step.name ?? `${step.method} ${step.url}`})`
    const used = [
      ...namesIn(step.url),
      ...namesIn(step.headers),
      ...namesIn(step.json),
      ...namesIn(step.form),
      ...namesIn(step.multipart),
      ...(step.auth ? [step.auth] : []),
    ]
    for (const n of new Set(used)) if (!known.has(n)) problems.push(`${name} 用到未定义的变量 ${n}`)
    for (const p of contractProblems(step)) problems.push(`${name} ${p}`)
    if (!opts.emulated) {
      if (step.url.startsWith('/__emu/') && !CONTROL_IN_BOTH_MODES.test(step.url)) {
        problems.push(`${name} 需要模拟器的数据，代理模式下不可用`)
      } else if (step.url.startsWith('/api/') && isDataStep(step) && !opts.allowData) {
        problems.push(
          `${name} 会在真实上游改动数据（${step.method} ${step.url}）；确要执行请加 allowData: true（CLI: --allow-data）`,
        )
      }
    }
    for (const n of Object.keys(step.save ?? {})) known.add(n)
  }
  for (const s of scenario.sessions) {
    for (const n of namesIn(s.token))
      if (!known.has(n)) problems.push(`会话 ${s.token} 用到未定义的变量 ${n}`)
  }
  return problems
}

/**
 * Why setting a clock would be refused, or null: for the world clock, a setting that would move
 * it backwards, unless forced (the world has drawn and confirmed up to now); a scope's clock may
 * go anywhere.
 */
export function clockProblem(clock: EmuClock, set: ClockSet, world = false): string | null {
  if (!world || set.force) return null
  const now = clock.worldNow()
  const state = clock.state()
  const real = state.mode === 'frozen' ? Date.now() : now - state.offsetMs
  const target = set.mode === 'real' ? real : set.mode === 'frozen' ? (set.at ?? now) : real + set.offsetMs
  if (target >= now) return null
  return `世界时钟不能往回拨（从 ${new Date(now).toISOString()} 到 ${new Date(target).toISOString()}）：已开奖的回合、已到账的充值不会撤销。确需回拨请加 force（CLI: --force）`
}

/** Sets a clock; moving the world clock backwards unforced is refused (see clockProblem). */
/** A template's `{{…}}` stands for some value: for finding the endpoint, any one segment. */
const PLACEHOLDER = /\{\{\s*[\w.-]+\s*\}\}/g
const isTemplated = (value: unknown): boolean => typeof value === 'string' && value.includes('{{')

/**
 * What the step's contract says is wrong with it, found before anything runs: no such endpoint
 * (or another method), no session where one is needed, and fields its query or body schema
 * refuses. A field whose value is a `{{template}}` is known only at run time, so it is not judged.
 */
function contractProblems(step: ScenarioStep): string[] {
  const [rawPath = '', rawQuery] = step.url.split('?')
  const path = rawPath.replace(PLACEHOLDER, 'x')
  const problems: string[] = []
  let endpoint: Endpoint | ControlEndpoint | undefined
  if (path.startsWith('/api/')) {
    const same = ENDPOINTS.filter((e) => e.path === path)
    endpoint = same.find((e) => e.method === step.method)
    if (!endpoint) {
      return [
        same.length > 0
          ? `用了 ${step.method}，这个接口要 ${same.map((e) => e.method).join('/')}`
          : `不是已知的接口: ${path}`,
      ]
    }
    if (
      endpoint.auth &&
      !step.auth &&
      !Object.keys(step.headers ?? {}).some((h) => h.toLowerCase() === TOKEN_HEADER)
    ) {
      problems.push('需要登录：给 auth（保存 token 的变量名）')
    }
  } else {
    const same = CONTROL_ENDPOINTS.filter((e) => matchesControlPath(e, path))
    endpoint = same.find((e) => e.method === step.method)
    if (!endpoint) {
      return [
        same.length > 0
          ? `用了 ${step.method}，这个控制接口要 ${same.map((e) => e.method).join('/')}`
          : `不是已知的控制接口: ${path}`,
      ]
    }
  }
  const judge = (schema: z.ZodType, value: unknown, what: string) => {
    const fields = value && typeof value === 'object' ? (value as Record<string, unknown>) : {}
    const templated = Object.values(fields).some(isTemplated) || isTemplated(value)
    for (const issue of schema.safeParse(value).error?.issues ?? []) {
      const key = issue.path[0]
      // A field the schema does not know is wrong whatever the templates hold.
      const unknown = issue.code === 'unrecognized_keys'
      if (!unknown && (key === undefined ? templated : isTemplated(fields[String(key)]))) continue
      problems.push(`${what}${issue.path.length > 0 ? ` ${issue.path.join('.')}` : ''}: ${issue.message}`)
    }
  }
  if (endpoint.query) {
    const query: Record<string, string> = {}
    for (const [k, v] of new URLSearchParams(rawQuery ?? '')) query[k] = v
    judge(endpoint.query, query, '查询参数')
  }
  if (endpoint.body) {
    const body = step.json ?? step.form ?? step.multipart
    judge(endpoint.body, body ?? (path.startsWith('/api/') ? {} : undefined), '字段')
  }
  return problems
}

export function setClock(clock: EmuClock, set: ClockSet, world = false): void {
  const problem = clockProblem(clock, set, world)
  if (problem) throw new ApiError(CODE.conflict, problem, 409)
  if (set.mode === 'real') clock.real()
  else if (set.mode === 'frozen') clock.freeze(set.at)
  else clock.setOffset(set.offsetMs)
}

/** A step that ran: what it sent and got, and why it stopped the activation, if it did. */
interface StepDone {
  readonly index: number
  readonly name: string
  readonly step: ScenarioStep
  readonly url: string
  /** Headers an undo sends too: the internal key, the admin token, the scope, the session. */
  readonly headers: Record<string, string>
  /** The fields sent (form, multipart or JSON body). */
  readonly sent: unknown
  readonly status: number
  readonly code: number | null
  readonly answer: unknown
  readonly failure: ApiError | null
}

async function runStep(
  app: FastifyInstance,
  step: ScenarioStep,
  index: number,
  vars: Vars,
  opts: ActivateOptions,
): Promise<StepDone> {
  const name = step.name ?? `${step.method} ${step.url}`
  const url = fillTemplate(step.url, vars)
  const base: Record<string, string> = { [INTERNAL_HEADER]: app.faults.internalKey }
  // The admin token goes only to /__emu: in proxy mode /api calls travel to the upstream.
  if (opts.adminToken && url.startsWith('/__emu/')) base[ADMIN_TOKEN_HEADER] = opts.adminToken
  if (opts.scope !== null) base[SCOPE_HEADER] = opts.scope
  if (step.auth) base[TOKEN_HEADER] = fillTemplate(`{{${step.auth}}}`, vars)
  const headers: Record<string, string> = { ...(step.headers ? fillRecord(step.headers, vars) : {}), ...base }
  // What an undo sends again: the same session, scope and keys, but never the step's body type.
  const again = Object.fromEntries(
    Object.entries(headers).filter(([k]) => k.toLowerCase() !== 'content-type'),
  )
  let payload: string | undefined
  let sent: unknown = null
  if (step.json !== undefined) {
    sent = fillDeep(step.json, vars)
    payload = JSON.stringify(sent)
    headers['content-type'] = 'application/json'
  } else if (step.form) {
    sent = fillRecord(step.form, vars)
    payload = new URLSearchParams(sent as Record<string, string>).toString()
    headers['content-type'] = 'application/x-www-form-urlencoded'
  } else if (step.multipart) {
    sent = fillRecord(step.multipart, vars)
    const body = multipartBody(sent as Record<string, string>)
    payload = body.payload
    headers['content-type'] = body.type
  }
  const res = await call(app, step.method, url, headers, payload)
  const done = {
    index,
    name,
    step,
    url,
    headers: again,
    sent,
    status: res.status,
    code: res.code,
    answer: res.body,
  }
  const expected = step.expectCode ?? null
  const fine = expected
    ? res.code !== null && expected.includes(res.code)
    : res.code !== null && isSuccessCode(res.code)
  if (!fine) {
    const failure = new ApiError(
      CODE.conflict,
      `场景步骤 ${index + 1} (${name}) 失败: HTTP ${res.status}, code ${res.code ?? '-'}, ${res.msg}`,
      409,
    )
    return { ...done, failure }
  }
  for (const [key, path] of Object.entries(step.save ?? {})) {
    const value = pick(res.body, path)
    if (value === undefined || value === null || typeof value === 'object') {
      const failure = new ApiError(CODE.conflict, `场景步骤 ${index + 1} (${name}) 的回答里没有 ${path}`, 409)
      return { ...done, failure }
    }
    vars[key] = String(value)
  }
  return { ...done, failure: null }
}

/** One call the server makes to itself, past the fault layer: its status, body, code and message. */
async function call(
  app: FastifyInstance,
  method: ScenarioStep['method'],
  url: string,
  headers: Record<string, string>,
  payload?: string,
): Promise<{ status: number; body: unknown; code: number | null; msg: string }> {
  const res = await app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) })
  let body: unknown
  try {
    body = res.json()
  } catch {
    body = undefined
  }
  const rawCode = pick(body, 'code')
  const msg = pick(body, 'msg') ?? pick(body, 'message') ?? res.body.slice(0, 200)
  return {
    status: res.statusCode,
    body,
    code: typeof rawCode === 'number' ? rawCode : null,
    msg: String(msg),
  }
}

/** How to take back what a step did, from what it sent and what it got; null when there is no way. */
interface Undo {
  readonly what: string
  readonly method: ScenarioStep['method']
  readonly url: string
  readonly form?: Record<string, string>
}

/**
 * The undo of a step that changed data, where the API has one: a bound withdrawal address is
 * deleted again (the one the answer lists under the address sent), a rule added through
 * /__emu/faults is removed. Withdrawals, deposits, registrations, password changes and the like
 * have none.
 */
export function undoOf(method: string, url: string, sent: unknown, answer: unknown): Undo | null {
  const path = url.split('?')[0] ?? url
  if (method === 'POST' && path === '/api/api2/wallets/bind') {
    const address = pick(sent, 'address')
    const list = pick(answer, 'data.list')
    if (typeof address !== 'string' || !Array.isArray(list)) return null
    const bound = list.find((w) => pick(w, 'address') === address.trim())
    const id = pick(bound, 'id')
    if (typeof id !== 'number' && typeof id !== 'string') return null
    return {
      what: `删除绑定的地址 ${address.trim()}`,
      method: 'POST',
      url: '/api/wallets/delete',
      form: { id: String(id) },
    }
  }
  if (method === 'POST' && path === '/__emu/faults') {
    const id = pick(answer, 'data.id')
    if (typeof id !== 'string') return null
    return { what: `删除规则 ${id}`, method: 'DELETE', url: `/__emu/faults/${encodeURIComponent(id)}` }
  }
  return null
}

/**
 * Undoes, newest first, what the steps that ran changed, where an undo exists; answers a report:
 * what was undone, and exactly what remains. A step that changed nothing (a read, a login, an
 * answer other than success such as "already bound", a refusal) needs no undo.
 */
async function undoSteps(
  app: FastifyInstance,
  done: readonly StepDone[],
  opts: ActivateOptions,
): Promise<string> {
  const where = opts.emulated ? '模拟器的数据里' : '上游'
  const undone: string[] = []
  const remains: string[] = []
  for (const d of [...done].reverse()) {
    if (!isDataStep(d.step) || d.code === null || !isSuccessCode(d.code)) continue
    const label = `步骤 ${d.index + 1} (${d.name}): ${d.step.method} ${d.url}`
    const undo = undoOf(d.step.method, d.url, d.sent, d.answer)
    if (!undo) {
      remains.push(`${label} — 没有撤销的办法，改动仍在${where}`)
      continue
    }
    const payload = undo.form ? new URLSearchParams(undo.form).toString() : undefined
    const headers = {
      ...d.headers,
      ...(payload ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    }
    const res = await call(app, undo.method, undo.url, headers, payload).catch((err: unknown) => ({
      status: 0,
      code: null,
      msg: String(err),
    }))
    if (res.code !== null && isSuccessCode(res.code)) undone.push(`${label}：${undo.what}`)
    else {
      remains.push(
        `${label} — 撤销（${undo.what}）失败: HTTP ${res.status}, code ${res.code ?? '-'}, ${res.msg}；改动仍在${where}`,
      )
    }
  }
  const lines = ['原有的规则、会话故障和场景未变。']
  if (undone.length > 0) lines.push(`已撤销：\n  ${undone.join('\n  ')}`)
  lines.push(remains.length > 0 ? `仍然留下：\n  ${remains.join('\n  ')}` : '没有留下任何改动。')
  return lines.join('\n')
}
