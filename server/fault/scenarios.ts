import { randomInt } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { SCOPE_HEADER, TOKEN_HEADER } from '@shared/constants'
import {
  type Activation,
  ADMIN_TOKEN_HEADER,
  ANY_SESSION,
  type ClockSet,
  type Scenario,
  type ScenarioStep,
  scenarioSchema,
} from '@shared/emu-control'
import { CODE, isSuccessCode } from '@shared/envelope'
import type { FastifyInstance } from 'fastify'
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
 * Applies a scenario in one go: reset (its scope, or the data when it asks and is global), the
 * steps, the clock, the rules and the session faults. Steps run first and skip the fault layer,
 * so the scenario's own rules never break its own set-up.
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
  // All or nothing: every step is checked before the first one runs (or touches an upstream).
  const problems = checkScenario(scenario, Object.keys(params), opts)
  if (problems.length > 0) {
    throw new ApiError(
      CODE.conflict,
      `场景 ${scenario.name} 未执行，没有任何改动：\n${problems.join('\n')}`,
      409,
    )
  }
  // An activation replaces its scope's set-up (or the unscoped one); other scopes keep theirs.
  faults.clearSetup(scope)
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
  for (const [i, step] of scenario.steps.entries()) {
    steps.push(await runStep(app, step, i, vars, opts))
  }

  const sessionTokens = scenario.sessions.map((s) => fillTemplate(s.token, vars))
  for (const token of sessionTokens) assertSessionToken(app, token, opts.emulated)

  if (scenario.clock) {
    const set = opts.force ? { ...scenario.clock, force: true } : scenario.clock
    setClock(scope === null ? clock : clock.forScope(scope), set, scope === null)
  }
  if (scenario.advanceMs) (scope === null ? clock : clock.forScope(scope)).advance(scenario.advanceMs)

  const rules: string[] = []
  for (const rule of scenario.rules) {
    const added = faults.rules.add(
      {
        ...rule,
        seed: rule.seed ?? scenario.seed,
        label: rule.label ?? scenario.name,
        ...(scope === null ? {} : { scope }),
      },
      clock.nowFor(scope),
    )
    rules.push(added.id)
  }
  for (const [i, s] of scenario.sessions.entries()) {
    const token = sessionTokens[i] ?? ANY_SESSION
    if (s.fault) faults.failSession(token, s.fault, scope)
    if (s.lifetime) faults.limitSession(token, s.lifetime, scope)
  }
  faults.setScenario(scope, scenario.name)

  const shown = Object.fromEntries(
    Object.entries(vars).map(([k, v]) => [k, SECRET_VAR.test(k) ? '[redacted]' : v]),
  )
  return { scenario: scenario.name, scope, vars: shown, rules, steps }
}

/**
 * Sets a clock. For the world clock, a setting that would move it backwards is refused unless
 * forced (the world has drawn and confirmed up to now); a scope's clock may go anywhere.
 */
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

export function setClock(clock: EmuClock, set: ClockSet, world = false): void {
  if (world && !set.force) {
    const now = clock.worldNow()
    const state = clock.state()
    const real = state.mode === 'frozen' ? Date.now() : now - state.offsetMs
    const target = set.mode === 'real' ? real : set.mode === 'frozen' ? (set.at ?? now) : real + set.offsetMs
    if (target < now) {
      throw new ApiError(
        CODE.conflict,
        `世界时钟不能往回拨（从 ${new Date(now).toISOString()} 到 ${new Date(target).toISOString()}）：已开奖的回合、已到账的充值不会撤销。确需回拨请加 force（CLI: --force）`,
        409,
      )
    }
  }
  if (set.mode === 'real') clock.real()
  else if (set.mode === 'frozen') clock.freeze(set.at)
  else clock.setOffset(set.offsetMs)
}

async function runStep(
  app: FastifyInstance,
  step: ScenarioStep,
  index: number,
  vars: Vars,
  opts: ActivateOptions,
): Promise<Activation['steps'][number]> {
  const name = step.name ?? `${step.method} ${step.url}`
  const url = fillTemplate(step.url, vars)
  const headers: Record<string, string> = {
    [INTERNAL_HEADER]: app.faults.internalKey,
    ...(step.headers ? fillRecord(step.headers, vars) : {}),
  }
  // The admin token goes only to /__emu: in proxy mode /api calls travel to the upstream.
  if (opts.adminToken && url.startsWith('/__emu/')) headers[ADMIN_TOKEN_HEADER] = opts.adminToken
  if (opts.scope !== null) headers[SCOPE_HEADER] = opts.scope
  if (step.auth) headers[TOKEN_HEADER] = fillTemplate(`{{${step.auth}}}`, vars)
  let payload: string | undefined
  if (step.json !== undefined) {
    payload = JSON.stringify(fillDeep(step.json, vars))
    headers['content-type'] = 'application/json'
  } else if (step.form) {
    payload = new URLSearchParams(fillRecord(step.form, vars)).toString()
    headers['content-type'] = 'application/x-www-form-urlencoded'
  } else if (step.multipart) {
    const body = multipartBody(fillRecord(step.multipart, vars))
    payload = body.payload
    headers['content-type'] = body.type
  }
  const res = await app.inject({
    method: step.method,
    url,
    headers,
    ...(payload === undefined ? {} : { payload }),
  })
  let body: unknown
  try {
    body = res.json()
  } catch {
    body = undefined
  }
  const rawCode = pick(body, 'code')
  const code = typeof rawCode === 'number' ? rawCode : null
  const expected = step.expectCode ?? null
  const fine = expected ? code !== null && expected.includes(code) : code !== null && isSuccessCode(code)
  if (!fine) {
    const msg = pick(body, 'msg') ?? pick(body, 'message') ?? res.body.slice(0, 200)
    throw new ApiError(
      CODE.conflict,
      `场景步骤 ${index + 1} (${name}) 失败: HTTP ${res.statusCode}, code ${code ?? '-'}, ${String(msg)}`,
      409,
    )
  }
  for (const [key, path] of Object.entries(step.save ?? {})) {
    const value = pick(body, path)
    if (value === undefined || value === null || typeof value === 'object') {
      throw new ApiError(CODE.conflict, `场景步骤 ${index + 1} (${name}) 的回答里没有 ${path}`, 409)
    }
    vars[key] = String(value)
  }
  return { name, status: res.statusCode, code }
}
