import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { streamRoute } from '../shared/contract/stream-route'
import {
  type FaultAction,
  type FaultRuleInput,
  faultActionSchema,
  faultRuleInputSchema,
  isStreamAction,
  type JournalEntry,
  type JournalFilter,
  parseFieldTest,
} from '../shared/emu-control'
import { EmuClient, EmuControlError } from './emu/emu-client'

const HELP = `npm run emu -- <command> [options]

The emulator's control API (/__emu) from the shell. Server: --url, or EMU_URL, or http://localhost:3000.
Admin token: --admin-token, or EMU_ADMIN_TOKEN. Scope: --scope, or EMU_SCOPE (every command then
reads and changes only that scope).

  state                                   mode, clock, rules, scopes, scenario, journal size
  reset --all [--seed N]                  everything: data back to the seed, rules, clocks, journal cleared
  --scope S reset                         only that scope's rules, session faults, clock, scenario, journal
  seed <N>                                seed for the generators of rules added from now on

  fault add <action> [match] [schedule]   add a rule; prints it (its id first)
     actions:  --envelope CODE [--msg TEXT] | --status CODE [--body TEXT|JSON] | --delay MS | --delay MIN-MAX
               --hang | --reset | --empty | --malformed | --truncate | --rule JSON (a whole rule)
               network: --bandwidth BYTES_PER_S | --slicer BYTES:DELAY | --slow-close DURATION
               --latency DURATION [--jitter DURATION] | --timeout DURATION | --reset-after-head
               stream (GET /api/stream, the default --path for these; they act on the next streams opened):
                 --stream-drop N | --stream-delay MS|MIN-MAX | --stream-duplicate | --stream-reorder
                 --stream-skip M [--after-events N] | --stream-refuse [--refuse-status CODE]
                 --stream-session-end [--after-events N] [--reason revoked|expired]
                 --events TYPE,TYPE (only these event types: draw, round, balance…)
     --quiet:  print only the new rule's id
     match:    --path GLOB (default /api/**, no ?query) --method M --nth N
               --query T --header T --body-field T (repeatable; T: name=value, name~=regex, name, !name)
     schedule: --times N --after N --every N --retry-passes --probability P --until TIME --seed N --label TEXT
     states:   --in-scenario NAME [--when-state S] [--set-state S]
  fault list | fault get <id> | fault rm <id>
  fault clear --all | --scope S fault clear   every scope's rules, or one scope's

  record start <name> [match] [--overwrite]   record what matched calls are answered (match: --path --method
                                          --query --header); record stop writes fixtures/scenarios/<name>.json
  record stop
  states                                  where the state machines (rules' inScenario) are
  states set <name> <state>               move one (e.g. back to Started)
  clock                                   show the clock
  clock freeze [TIME] | clock real | clock offset <DURATION> | clock advance <DURATION>
                                          moving the world clock back is refused without --force
  login [--phone P --password W]          log a player in (the demo player by default); prints the token
  session expire <token|any> | session revoke <token|any>
  session lifetime <token|any> (--ms DURATION | --requests N)

  scenario list | scenario show <name>
  scenario <name> [--param k=v ...]       activate a scenario (also: scenario activate <name>)
     --allow-data: in proxy mode, let its data steps (deposits, withdrawals…) reach the upstream
     --force:      let its clock move the world clock back

  requests [filters] [--limit N]          the journal, oldest first
  requests count [filters]                how many journal entries match
  requests verify [filters] [--times N | --at-least N | --at-most N]
                                          was it called so often? exit 1 when not (default: at least once)
  tail [filters]                          follow the journal (Ctrl-C stops)
     filters:  --path GLOB --method M --since TIME --until TIME --unmatched --matched
               (--since/--until are wall-clock times: an ISO date, epoch ms, or a DURATION ago: --since 10m)
               --rule ID --status N --code N
               --query T --header T --body-field T   (repeatable) T: name=value, name~=regex, name, !name
  sms [phone]                             SMS codes the emulator "sent"

DURATION: 500, 500ms, 90s, 5m, 2h, 1d.  TIME: epoch ms or an ISO date.  --json: print raw JSON.
`

export interface CliIo {
  readonly out: (line: string) => void
  readonly err: (line: string) => void
  readonly env: Record<string, string | undefined>
  readonly fetch?: typeof fetch
  /** Stops `tail`; Ctrl-C in the shell. */
  readonly signal?: AbortSignal
}

class UsageError extends Error {
  override name = 'UsageError'
}

/** 500, 500ms, 90s, 5m, 2h, 1d → ms. */
export function parseDuration(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(text.trim())
  if (!m) throw new UsageError(`not a duration: ${text} (try 500, 90s, 5m, 2h, 1d)`)
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }
  return Math.round(Number(m[1]) * (units[m[2] ?? 'ms'] ?? 1))
}

/** Epoch ms, or an ISO date. */
export function parseTime(text: string): number {
  if (/^\d+$/.test(text)) return Number(text)
  const t = Date.parse(text)
  if (Number.isNaN(t)) throw new UsageError(`not a time: ${text} (epoch ms or an ISO date)`)
  return t
}

/** A wall-clock time for the journal's filters: epoch ms, an ISO date, or a duration ago (`10m`). */
export function parseWallTime(text: string, now: number = Date.now()): number {
  if (/^\d+(?:\.\d+)?(ms|s|m|h|d)$/.test(text.trim())) return now - parseDuration(text)
  return parseTime(text)
}

const int = (name: string, text: string | undefined): number | undefined => {
  if (text === undefined) return undefined
  if (!/^-?\d+$/.test(text)) throw new UsageError(`--${name} needs a whole number, got ${text}`)
  return Number(text)
}

const OPTIONS = {
  url: { type: 'string' },
  'admin-token': { type: 'string' },
  scope: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  // actions
  envelope: { type: 'string' },
  msg: { type: 'string' },
  status: { type: 'string' },
  body: { type: 'string' },
  delay: { type: 'string' },
  hang: { type: 'boolean' },
  reset: { type: 'boolean' },
  empty: { type: 'boolean' },
  malformed: { type: 'boolean' },
  truncate: { type: 'boolean' },
  rule: { type: 'string' },
  // match and schedule
  path: { type: 'string' },
  method: { type: 'string' },
  nth: { type: 'string' },
  times: { type: 'string' },
  after: { type: 'string' },
  every: { type: 'string' },
  'retry-passes': { type: 'boolean' },
  probability: { type: 'string' },
  until: { type: 'string' },
  seed: { type: 'string' },
  label: { type: 'string' },
  // sessions, scenarios, journal
  ms: { type: 'string' },
  requests: { type: 'string' },
  param: { type: 'string', multiple: true },
  since: { type: 'string' },
  unmatched: { type: 'boolean' },
  matched: { type: 'boolean' },
  code: { type: 'string' },
  limit: { type: 'string' },
  interval: { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
  all: { type: 'boolean' },
  query: { type: 'string', multiple: true },
  header: { type: 'string', multiple: true },
  'body-field': { type: 'string', multiple: true },
  'at-least': { type: 'string' },
  'in-scenario': { type: 'string' },
  force: { type: 'boolean' },
  overwrite: { type: 'boolean' },
  'reset-after-head': { type: 'boolean' },
  bandwidth: { type: 'string' },
  slicer: { type: 'string' },
  'slow-close': { type: 'string' },
  latency: { type: 'string' },
  jitter: { type: 'string' },
  timeout: { type: 'string' },
  'allow-data': { type: 'boolean' },
  'when-state': { type: 'string' },
  'set-state': { type: 'string' },
  'at-most': { type: 'string' },
  phone: { type: 'string' },
  password: { type: 'string' },
  'stream-drop': { type: 'string' },
  'stream-delay': { type: 'string' },
  'stream-duplicate': { type: 'boolean' },
  'stream-reorder': { type: 'boolean' },
  'stream-skip': { type: 'string' },
  'stream-refuse': { type: 'boolean' },
  'refuse-status': { type: 'string' },
  'stream-session-end': { type: 'boolean' },
  'after-events': { type: 'string' },
  reason: { type: 'string' },
  events: { type: 'string' },
} as const

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values']

function actionFrom(v: Values): FaultAction {
  const chosen: FaultAction[] = []
  if (v.envelope !== undefined) {
    chosen.push({
      type: 'envelope',
      code: int('envelope', v.envelope) ?? 0,
      ...(v.msg === undefined ? {} : { msg: v.msg }),
    })
  }
  if (v.status !== undefined) {
    let body: unknown = v.body
    if (v.body !== undefined) {
      try {
        body = JSON.parse(v.body)
      } catch {
        body = v.body
      }
    }
    chosen.push({
      type: 'status',
      status: int('status', v.status) ?? 500,
      ...(body === undefined ? {} : { body }),
    })
  }
  if (v.delay !== undefined) {
    const range = /^(\w+)-(\w+)$/.exec(v.delay)
    chosen.push(
      range?.[1] && range[2]
        ? { type: 'delay', minMs: parseDuration(range[1]), maxMs: parseDuration(range[2]) }
        : { type: 'delay', ms: parseDuration(v.delay) },
    )
  }
  for (const type of ['hang', 'reset', 'empty', 'malformed', 'truncate'] as const) {
    if (v[type]) chosen.push(faultActionSchema.parse({ type }))
  }
  if (v['reset-after-head']) chosen.push({ type: 'reset', after: 'head' })
  if (v.bandwidth !== undefined) {
    chosen.push({ type: 'bandwidth', bytesPerSecond: int('bandwidth', v.bandwidth) ?? 1 })
  }
  if (v.slicer !== undefined) {
    const m = /^(\d+):(\w+)$/.exec(v.slicer)
    if (!m?.[1] || !m[2]) throw new UsageError(`--slicer wants BYTES:DELAY, e.g. 64:100ms, got ${v.slicer}`)
    chosen.push({ type: 'slicer', chunkBytes: Number(m[1]), delayMs: parseDuration(m[2]) })
  }
  if (v['slow-close'] !== undefined) chosen.push({ type: 'slowClose', ms: parseDuration(v['slow-close']) })
  if (v.latency !== undefined) {
    chosen.push({
      type: 'latency',
      ms: parseDuration(v.latency),
      ...(v.jitter === undefined ? {} : { jitterMs: parseDuration(v.jitter) }),
    })
  }
  if (v.timeout !== undefined) chosen.push({ type: 'timeout', ms: parseDuration(v.timeout) })
  const asked: unknown[] = [...chosen, ...streamActionsFrom(v)]
  if (asked.length !== 1) {
    throw new UsageError(
      'give exactly one action: --envelope, --status, --delay, --hang, --reset, --reset-after-head, --empty, --malformed, --truncate, --bandwidth, --slicer, --slow-close, --latency, --timeout, --stream-drop, --stream-delay, --stream-duplicate, --stream-reorder, --stream-skip, --stream-refuse, --stream-session-end',
    )
  }
  return faultActionSchema.parse(asked[0])
}

/** The push channel's actions asked for (docs/testing.md#stream-faults). */
function streamActionsFrom(v: Values): unknown[] {
  const chosen: unknown[] = []
  const events = v.events === undefined ? {} : { events: v.events.split(',').map((t) => t.trim()) }
  const afterEvents =
    v['after-events'] === undefined ? {} : { afterEvents: int('after-events', v['after-events']) }
  if (v['stream-drop'] !== undefined) {
    chosen.push({ type: 'streamDrop', afterEvents: int('stream-drop', v['stream-drop']) })
  }
  if (v['stream-delay'] !== undefined) {
    const range = /^(\w+)-(\w+)$/.exec(v['stream-delay'])
    const ms =
      range?.[1] && range[2]
        ? { minMs: parseDuration(range[1]), maxMs: parseDuration(range[2]) }
        : { ms: parseDuration(v['stream-delay']) }
    chosen.push({ type: 'streamDelay', ...ms, ...events })
  }
  if (v['stream-duplicate']) chosen.push({ type: 'streamDuplicate', ...events })
  if (v['stream-reorder']) chosen.push({ type: 'streamReorder', ...events })
  if (v['stream-skip'] !== undefined) {
    chosen.push({
      type: 'streamSkip',
      count: int('stream-skip', v['stream-skip']),
      ...afterEvents,
      ...events,
    })
  }
  if (v['stream-refuse']) {
    const status =
      v['refuse-status'] === undefined ? {} : { status: int('refuse-status', v['refuse-status']) }
    chosen.push({ type: 'streamRefuse', ...status })
  }
  if (v['stream-session-end']) {
    chosen.push({
      type: 'streamSessionEnd',
      ...afterEvents,
      ...(v.reason === undefined ? {} : { reason: v.reason }),
    })
  }
  return chosen
}

function ruleFrom(v: Values): FaultRuleInput {
  if (v.rule !== undefined) return faultRuleInputSchema.parse(JSON.parse(v.rule))
  const tests = (list: string[] | undefined) =>
    list === undefined ? undefined : Object.fromEntries(list.map(parseFieldTest))
  const query = tests(v.query)
  const headers = tests(v.header)
  const body = tests(v['body-field'])
  const action = actionFrom(v)
  const rule: FaultRuleInput = {
    match: {
      path: v.path ?? (isStreamAction(action) ? streamRoute.path : '/api/**'),
      ...(v.method === undefined ? {} : { method: v.method }),
      ...(v.nth === undefined ? {} : { nth: int('nth', v.nth) }),
      ...(query ? { query } : {}),
      ...(headers ? { headers } : {}),
      ...(body ? { body } : {}),
    },
    action,
  }
  if (v.times !== undefined) rule.times = int('times', v.times)
  if (v.after !== undefined) rule.after = int('after', v.after)
  if (v.every !== undefined) rule.every = int('every', v.every)
  if (v['retry-passes']) rule.retryPasses = true
  if (v.seed !== undefined) rule.seed = int('seed', v.seed)
  if (v.probability !== undefined) rule.probability = Number(v.probability)
  if (v.until !== undefined) rule.until = parseTime(v.until)
  if (v.label !== undefined) rule.label = v.label
  if (v['in-scenario'] !== undefined) rule.inScenario = v['in-scenario']
  if (v['when-state'] !== undefined) rule.whenState = v['when-state']
  if (v['set-state'] !== undefined) rule.setState = v['set-state']
  return faultRuleInputSchema.parse(rule)
}

function filterFrom(v: Values): JournalFilter {
  const f: JournalFilter = {}
  if (v.path !== undefined) f.path = v.path
  if (v.method !== undefined) f.method = v.method
  if (v.since !== undefined) f.since = parseWallTime(v.since)
  if (v.until !== undefined) f.until = parseWallTime(v.until)
  if (v.unmatched) f.unmatched = true
  if (v.matched) f.unmatched = false
  if (v.rule !== undefined) f.rule = v.rule
  if (v.status !== undefined) f.status = int('status', v.status)
  if (v.code !== undefined) f.code = int('code', v.code)
  if (v.query) f.query = v.query
  if (v.header) f.header = v.header
  if (v['body-field']) f.body = v['body-field']
  return f
}

/** One line per journal entry, for people. */
export function formatEntry(e: JournalEntry): string {
  const time = new Date(e.at).toISOString().slice(11, 23)
  const answer =
    e.outcome === 'answered'
      ? `${e.status ?? '-'} code ${e.code ?? '-'}`
      : `${e.outcome}${e.status ? ` ${e.status}` : ''}`
  const fault = e.fault
    ? `  [${e.fault.kind} ${e.fault.action}${e.fault.label ? ` "${e.fault.label}"` : ''}]`
    : ''
  const took = e.durationMs === null ? '' : `  ${e.durationMs}ms`
  const stream = e.stream
    ? `  {${e.stream.events} events${e.stream.touched > 0 ? `, ${e.stream.touched} touched` : ''}${e.stream.end ? `, ${e.stream.end}` : ''}}`
    : ''
  const scope = e.scope ? `  (${e.scope})` : ''
  return `#${e.seq} ${time} ${e.method} ${e.url} → ${answer}${fault}${stream}${took}${scope}`
}

/** Runs one CLI command; returns the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true })
  } catch (err) {
    io.err(`${err instanceof Error ? err.message : String(err)}\n\n${HELP}`)
    return 2
  }
  const { values: v, positionals: pos } = parsed
  if (v.help || pos.length === 0) {
    io.out(HELP)
    return pos.length === 0 && !v.help ? 2 : 0
  }
  const scope = v.scope ?? io.env.EMU_SCOPE
  const client = new EmuClient({
    url: v.url ?? io.env.EMU_URL ?? 'http://localhost:3000',
    adminToken: v['admin-token'] ?? io.env.EMU_ADMIN_TOKEN,
    scope: scope || undefined,
    ...(io.fetch ? { fetch: io.fetch } : {}),
  })
  const print = (value: unknown) => io.out(JSON.stringify(value, null, 2))
  const [cmd, sub, arg] = pos

  try {
    switch (cmd) {
      case 'state':
        print(await client.state())
        return 0
      case 'reset': {
        if (!scope && !v.all) throw new UsageError('reset needs --all (everything) or --scope S (one scope)')
        if (scope && v.all) throw new UsageError('give --all or --scope, not both')
        print(
          await client.reset({
            ...(v.seed === undefined ? {} : { seed: int('seed', v.seed) ?? 0 }),
            ...(v.all ? { all: true } : {}),
          }),
        )
        return 0
      }
      case 'record': {
        if (sub === 'stop') {
          print(await client.stopRecording())
          return 0
        }
        if (sub !== 'start' || !arg) throw new UsageError('record start <name> [--path GLOB …] | record stop')
        const tests = (list: string[] | undefined) =>
          list === undefined ? undefined : Object.fromEntries(list.map(parseFieldTest))
        const query = tests(v.query)
        const headers = tests(v.header)
        print(
          await client.record({
            name: arg,
            match: {
              path: v.path ?? '/api/**',
              ...(v.method === undefined ? {} : { method: v.method }),
              ...(query ? { query } : {}),
              ...(headers ? { headers } : {}),
            },
            ...(v.overwrite ? { overwrite: true } : {}),
          }),
        )
        return 0
      }
      case 'states': {
        if (sub === 'set') {
          const [, , name, state] = pos
          if (!name || !state) throw new UsageError('states set <name> <state>')
          print(await client.setState(name, state))
        } else print(await client.states())
        return 0
      }
      case 'seed':
        if (sub === undefined) throw new UsageError('seed <N>')
        print(await client.setSeed(int('seed', sub) ?? 0))
        return 0
      case 'fault':
      case 'faults':
        return await faultCommand(client, sub ?? 'list', arg, v, io, print)
      case 'clock':
        return await clockCommand(client, sub, arg, print, v.force === true)
      case 'login': {
        const session = await client.login(v.phone, v.password)
        if (v.json) print(session)
        else io.out(session.token)
        return 0
      }
      case 'session': {
        if (!arg) throw new UsageError('session expire|revoke|lifetime <token|any>')
        if (sub === 'expire' || sub === 'revoke') await client.failSession(arg, sub)
        else if (sub === 'lifetime') {
          if (v.ms === undefined && v.requests === undefined)
            throw new UsageError('session lifetime needs --ms or --requests')
          await client.sessionLifetime(arg, {
            ...(v.ms === undefined ? {} : { ms: parseDuration(v.ms) }),
            ...(v.requests === undefined ? {} : { requests: int('requests', v.requests) }),
          })
        } else throw new UsageError(`unknown session command: ${sub}`)
        io.out(`session ${sub}: ok`)
        return 0
      }
      case 'scenario':
      case 'scenarios': {
        if (sub === undefined || sub === 'list') {
          const all = await client.scenarios()
          if (v.json) print(all)
          else for (const s of all) io.out(`${s.name.padEnd(22)} ${s.description}`)
          return 0
        }
        if (sub === 'show') {
          if (!arg) throw new UsageError('scenario show <name>')
          print(await client.scenario(arg))
          return 0
        }
        const name = sub === 'activate' ? arg : sub
        if (!name) throw new UsageError('scenario <name>')
        const params: Record<string, string> = {}
        for (const p of v.param ?? []) {
          const eq = p.indexOf('=')
          if (eq < 1) throw new UsageError(`--param wants key=value, got ${p}`)
          params[p.slice(0, eq)] = p.slice(eq + 1)
        }
        print(
          await client.activate(name, params, {
            ...(v['allow-data'] ? { allowData: true } : {}),
            ...(v.force ? { force: true } : {}),
          }),
        )
        return 0
      }
      case 'requests':
      case 'journal': {
        if (sub === 'count') {
          io.out(String(await client.countRequests(filterFrom(v))))
          return 0
        }
        if (sub === 'verify') {
          const check = await client.verify({
            ...filterFrom(v),
            ...(v.times === undefined ? {} : { times: int('times', v.times) }),
            ...(v['at-least'] === undefined ? {} : { atLeast: int('at-least', v['at-least']) }),
            ...(v['at-most'] === undefined ? {} : { atMost: int('at-most', v['at-most']) }),
          })
          if (v.json) print(check)
          else {
            io.out(`${check.ok ? 'ok' : 'FAILED'}: ${check.count} call(s), expected ${check.expected}`)
            for (const e of check.entries) io.out(`  ${formatEntry(e)}`)
          }
          return check.ok ? 0 : 1
        }
        const page = await client.requests({
          ...filterFrom(v),
          ...(v.limit === undefined ? {} : { limit: int('limit', v.limit) }),
        })
        if (v.json) print(page)
        else for (const e of page.entries) io.out(formatEntry(e))
        return 0
      }
      case 'tail': {
        const filter = filterFrom(v)
        await client.tail((e) => io.out(v.json ? JSON.stringify(e) : formatEntry(e)), {
          filter,
          intervalMs: v.interval === undefined ? 500 : parseDuration(v.interval),
          ...(io.signal ? { signal: io.signal } : {}),
        })
        return 0
      }
      case 'sms':
        print(await client.sms(sub))
        return 0
      default:
        throw new UsageError(`unknown command: ${cmd}`)
    }
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`${err.message}\n\n${HELP}`)
      return 2
    }
    if (err instanceof EmuControlError) {
      io.err(err.message)
      return 1
    }
    if (err instanceof TypeError && /fetch failed/.test(err.message)) {
      io.err(
        `cannot reach the server: ${err.message}${err.cause instanceof Error ? ` (${err.cause.message})` : ''}`,
      )
      return 1
    }
    io.err(err instanceof Error ? err.message : String(err))
    return 1
  }
}

async function faultCommand(
  client: EmuClient,
  sub: string,
  arg: string | undefined,
  v: Values,
  io: CliIo,
  print: (value: unknown) => void,
): Promise<number> {
  switch (sub) {
    case 'add': {
      const rule = await client.addFault(ruleFrom(v))
      if (v.quiet) io.out(rule.id)
      else if (v.json) print(rule)
      else
        io.out(
          `${rule.id}  ${rule.action.type} on ${rule.match.method ?? '*'} ${rule.match.path}${rule.scope ? `  (scope ${rule.scope})` : ''}`,
        )
      return 0
    }
    case 'list': {
      const rules = await client.faults()
      if (v.json) print(rules)
      else if (rules.length === 0) io.out('no rules')
      else {
        for (const r of rules) {
          const state = r.spent ? 'spent' : `fired ${r.fired}/${r.times ?? '∞'}`
          io.out(
            `${r.id}  ${r.action.type.padEnd(9)} ${(r.match.method ?? '*').padEnd(6)} ${r.match.path}  matched ${r.matched}, ${state}${r.label ? `  "${r.label}"` : ''}${r.scope ? `  (scope ${r.scope})` : ''}`,
          )
        }
      }
      return 0
    }
    case 'get':
      if (!arg) throw new UsageError('fault get <id>')
      print(await client.getFault(arg))
      return 0
    case 'rm':
    case 'delete':
      if (!arg) throw new UsageError('fault rm <id>')
      await client.deleteFault(arg)
      io.out(`deleted ${arg}`)
      return 0
    case 'clear': {
      const scoped = client.options.scope !== undefined
      if (!scoped && !v.all)
        throw new UsageError('fault clear needs --all (every scope) or --scope S (one scope)')
      if (scoped && v.all) throw new UsageError('give --all or --scope, not both')
      print(await client.clearFaults(v.all ? { all: true } : {}))
      return 0
    }
    default:
      throw new UsageError(`unknown fault command: ${sub}`)
  }
}

async function clockCommand(
  client: EmuClient,
  sub: string | undefined,
  arg: string | undefined,
  print: (value: unknown) => void,
  force: boolean,
): Promise<number> {
  const opts = force ? { force: true } : {}
  const show = (state: Awaited<ReturnType<EmuClient['clock']>>) =>
    print({ ...state, iso: new Date(state.now).toISOString() })
  switch (sub) {
    case undefined:
    case 'show':
      show(await client.clock())
      return 0
    case 'freeze':
      show(await client.freezeClock(arg === undefined ? undefined : parseTime(arg), opts))
      return 0
    case 'real':
      show(await client.realClock(opts))
      return 0
    case 'offset':
      if (!arg) throw new UsageError('clock offset <DURATION>')
      show(await client.setClock({ mode: 'offset', offsetMs: parseDuration(arg), ...opts }))
      return 0
    case 'advance':
      if (!arg) throw new UsageError('clock advance <DURATION>')
      show(await client.advanceClock(parseDuration(arg)))
      return 0
    default:
      throw new UsageError(`unknown clock command: ${sub}`)
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const stop = new AbortController()
  process.once('SIGINT', () => stop.abort())
  runCli(process.argv.slice(2), {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    env: process.env,
    signal: stop.signal,
  }).then((code) => {
    process.exitCode = code
  })
}
