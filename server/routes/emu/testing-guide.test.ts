import { execFile } from 'node:child_process'
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { ADMIN_TOKEN, type LiveServer, startLive } from '@server/fault/live-servers'
import { ROOT_DIR } from '@server/paths'
import { scenarioSchema } from '@shared/emu-control'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EmuClient } from '../../../scripts/emu/emu-client'
import { runCli } from '../../../scripts/emu-cli'
import {
  type CodeBlock,
  codeBlocks,
  expandWord,
  inlineCommands,
  type ShellCommand,
  sectionOf,
  shellCommands,
  splitWords,
} from './guide-examples'

/**
 * Every copy-paste example of docs/testing.md, run literally against a started server, in the
 * order the guide gives them: each must succeed (exit code 0, or an envelope with code 1), unless
 * its comment says it is refused, in which case it must fail; and what its comment says it shows
 * must be in its output. The examples of "Proxy mode" run against a server in proxy mode. The
 * TypeScript examples run too, each `console.log(…) // → text` printing that text; an example
 * headed `// e2e/…` is part of that browser test file, word for word (the browser suite runs it).
 */

const run = promisify(execFile)
const GUIDE = join(ROOT_DIR, 'docs', 'testing.md')

/** Lines a test cannot run as written, and why. Everything else is run. */
const NOT_RUN: { test: RegExp; why: string }[] = [
  { test: /^npm start\b/, why: 'starts a server; the test starts its own' },
  { test: /^[A-Z_]+=\S+ .*npm start\b/, why: 'starts a server in proxy mode' },
  { test: /^export EMU_ADMIN_TOKEN=/, why: 'a placeholder for a server that has a token' },
]

let live: LiveServer
/** A server in proxy mode (in front of an emulator of its own), for the guide's proxy section. */
let proxy: LiveServer
/** A copy of fixtures/: the guide's examples write scenario files (recording), never into the repository. */
let fixtures: string

beforeAll(async () => {
  fixtures = await mkdtemp(join(tmpdir(), 'emu-guide-'))
  await cp(join(ROOT_DIR, 'fixtures'), fixtures, { recursive: true })
  live = await startLive('emulator', { GAME_CHAIN_LENGTH: '2000', FIXTURES_DIR: fixtures })
  proxy = await startLive('proxy')
}, 120_000)
afterAll(async () => {
  await live?.close()
  await proxy?.close()
  await rm(fixtures, { recursive: true, force: true })
}, 120_000)

const PROXY_SECTION = 'Proxy mode'

/** The guide's server address is localhost:3000; the test's is wherever it listens. */
const relocate = (text: string, server: LiveServer = live) =>
  text.replace(/http:\/\/localhost:3000/g, server.url).replace(/localhost:3000/g, new URL(server.url).host)

interface Result {
  ok: boolean
  out: string
  detail: string
}

async function runCommand(argv: string[], env: Record<string, string | undefined>): Promise<Result> {
  const [program, ...args] = argv
  if (program === 'npm' && args[0] === 'run') {
    const rest = args.slice(1).filter((a) => a !== '-s' && a !== '--silent')
    if (rest[0] !== 'emu' || rest[1] !== '--') throw new Error(`not an emu command: ${argv.join(' ')}`)
    const out: string[] = []
    const err: string[] = []
    const stop = new AbortController()
    // `tail` follows until Ctrl-C: stopped once it has read the journal twice (its start, one poll).
    let reads = 0
    const tailing = rest.includes('tail')
    const code = await runCli(rest.slice(2), {
      out: (l) => out.push(l),
      err: (l) => err.push(l),
      env,
      ...(tailing
        ? {
            signal: stop.signal,
            fetch: async (input: string | URL | Request, init?: RequestInit) => {
              const res = await fetch(input, init)
              if (String(input).includes('/__emu/requests') && ++reads >= 2) stop.abort()
              return res
            },
          }
        : {}),
    })
    return { ok: code === 0, out: out.join('\n'), detail: `exit ${code}: ${err.join('\n').slice(0, 400)}` }
  }
  if (program === 'curl') {
    const { stdout } = await run('curl', args, { timeout: 20_000 })
    let code: unknown
    try {
      code = (JSON.parse(stdout) as { code?: unknown }).code
    } catch {
      code = undefined
    }
    // An envelope must say 1; a document that is no envelope (the OpenAPI one) is fine as it is, and
    // so is an event stream (GET /api/stream) that the server ended (curl's exit code was 0).
    const document = code === undefined && stdout.trimStart().startsWith('{')
    const events = code === undefined && /^event: \w+$/m.test(stdout)
    return { ok: code === 1 || document || events, out: stdout, detail: stdout.slice(0, 400) }
  }
  throw new Error(`the guide test does not know how to run: ${argv.join(' ')}`)
}

/**
 * What an example's comment says its answer shows, checked beyond success: a JSON member quoted
 * in the comment (`("scope": "my-test")`) is in the output, and a few claims in words.
 */
const CLAIMS: { test: RegExp; check: (out: string, server: LiveServer) => Promise<string | null> }[] = [
  {
    // "the next 3 minutes' rounds are drawn at once (the cursors move on)"
    test: /clock advance 3m\b.*drawn at once/,
    check: async (out, server) => {
      const now = (JSON.parse(out) as { now: number }).now
      const res = await fetch(`${server.url}/__emu/games`)
      const cursors = ((await res.json()) as { data: { cursors: Record<string, number | null> } }).data
        .cursors
      const behind = Object.entries(cursors).filter(([, c]) => c === null || c < now - 5_000)
      return behind.length === 0 ? null : `rounds not drawn up to the clock: ${JSON.stringify(cursors)}`
    },
  },
]

function jsonClaims(comment: string, out: string): string | null {
  for (const m of comment.matchAll(/"([\w.]+)": ("[^"]*"|null|true|false|-?\d+)/g)) {
    const [, key = '', value = ''] = m
    const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    if (!new RegExp(`"${key}"\\s*:\\s*${escaped}`).test(out))
      return `the output has no "${key}": ${value}:\n${out.slice(0, 400)}`
  }
  return null
}

/** Runs one example; answers what went wrong, or null. */
async function runExample(
  cmd: ShellCommand,
  env: Record<string, string | undefined>,
  server: LiveServer = live,
): Promise<string | null> {
  const argv = cmd.words.map((w) => relocate(expandWord(w, env), server))
  const where = `docs/testing.md:${cmd.line}: ${cmd.source}`
  if (argv[0] === 'export') {
    for (const pair of argv.slice(1)) {
      const eq = pair.indexOf('=')
      env[pair.slice(0, eq)] = pair.slice(eq + 1)
    }
    return null
  }
  const result = await runCommand(argv, env)
  const refused = /\brefused\b/.test(cmd.comment)
  if (refused && result.ok) return `${where}\n  should be refused, but succeeded`
  if (!refused && !result.ok) return `${where}\n  ${result.detail}`
  const claimed = jsonClaims(cmd.comment, result.out)
  if (claimed) return `${where}\n  ${claimed}`
  for (const claim of CLAIMS.filter((c) => c.test.test(cmd.source))) {
    const problem = await claim.check(result.out, server)
    if (problem) return `${where}\n  ${problem}`
  }
  if (cmd.assign) {
    const value = result.out.trim()
    if (value === '') return `${where}\n  printed nothing`
    env[cmd.assign] = value
  }
  return null
}

describe("the tester's guide", () => {
  it('runs every shell example as written, the proxy section against a proxy', async () => {
    const text = await readFile(GUIDE, 'utf8')
    const blocks = codeBlocks(text)
    const env: Record<string, string | undefined> = { EMU_URL: live.url }
    // The section's own `export EMU_ADMIN_TOKEN=…` is a placeholder for the token the proxy has.
    const proxyEnv: Record<string, string | undefined> = { EMU_URL: proxy.url, EMU_ADMIN_TOKEN: ADMIN_TOKEN }
    let ran = 0
    let ranOnProxy = 0
    const failed: string[] = []
    for (const block of blocks.filter((b) => b.lang === 'sh')) {
      const onProxy = sectionOf(text, block.line) === PROXY_SECTION
      for (const cmd of shellCommands(block.text, block.line)) {
        if (NOT_RUN.some((n) => n.test.test(cmd.source))) continue
        const problem = await runExample(cmd, onProxy ? proxyEnv : env, onProxy ? proxy : live).catch(
          (err: unknown) => `${cmd.source}\n  ${String(err)}`,
        )
        if (problem) failed.push(problem)
        ran++
        if (onProxy) ranOnProxy++
      }
    }
    expect(failed).toEqual([])
    expect(ran).toBeGreaterThan(60)
    expect(ranOnProxy).toBeGreaterThanOrEqual(4)
  }, 120_000)

  it('runs every command written in the text (the scenarios table, sentences), in order', async () => {
    const text = await readFile(GUIDE, 'utf8')
    const env: Record<string, string | undefined> = { EMU_URL: live.url }
    const failed: string[] = []
    const commands = inlineCommands(text)
    for (const cmd of commands) {
      const problem = await runExample(cmd, env).catch((err: unknown) => `${cmd.source}\n  ${String(err)}`)
      if (problem) failed.push(problem)
    }
    expect(failed).toEqual([])
    expect(commands.length).toBeGreaterThan(15)
  }, 120_000)

  it('runs every TypeScript example; a browser test example is that test, word for word', async () => {
    const blocks = codeBlocks(await readFile(GUIDE, 'utf8')).filter((b) => b.lang === 'ts')
    const failed: string[] = []
    let excerpts = 0
    let scripts = 0
    for (const block of blocks) {
      const file = /^\/\/ (e2e\/\S+\.ts)\s*$/.exec(block.text.split('\n')[0] ?? '')?.[1]
      const problem = file ? await excerptProblem(block, file) : await scriptProblem(block)
      if (problem) failed.push(`docs/testing.md:${block.line}: ${problem}`)
      if (file) excerpts++
      else scripts++
    }
    expect(failed).toEqual([])
    expect(excerpts).toBeGreaterThanOrEqual(2)
    expect(scripts).toBeGreaterThanOrEqual(2)
  }, 60_000)

  it('every JSON example is a valid scenario, and activates as it stands', async () => {
    const blocks = codeBlocks(await readFile(GUIDE, 'utf8')).filter((b) => b.lang === 'json')
    expect(blocks.length).toBeGreaterThan(0)
    for (const b of blocks) {
      const scenario = scenarioSchema.parse(JSON.parse(b.text))
      await writeFile(join(fixtures, 'scenarios', `${scenario.name}.json`), b.text)
      // In a scope of its own: its clock and rules stay there.
      const emu = new EmuClient({ url: live.url }).withScope(`guide-json-${b.line}`)
      const activation = await emu.activate(scenario.name)
      expect(activation.rules).toHaveLength(scenario.rules.length)
      expect(activation.steps.map((s) => s.code)).toEqual(scenario.steps.map(() => 1))
      expect((await emu.state()).scenario).toBe(scenario.name)
      await emu.reset()
    }
  })

  it('names only methods the typed client has', async () => {
    const text = await readFile(GUIDE, 'utf8')
    const list = /Methods: ([^.]+)\./.exec(text)?.[1] ?? ''
    const names = [...list.matchAll(/`(\w+)`/g)].map((m) => m[1] ?? '')
    expect(names.length).toBeGreaterThan(20)
    const proto = EmuClient.prototype as unknown as Record<string, unknown>
    for (const n of names) expect(typeof proto[n], n).toBe('function')
    for (const b of codeBlocks(text).filter((c) => c.lang === 'ts')) {
      for (const m of b.text.matchAll(/\b(?:emu|root)\.(\w+)\(/g)) {
        expect(typeof proto[m[1] ?? ''], `${m[1]} in docs/testing.md:${b.line}`).toBe('function')
      }
    }
  })
})

describe('reading the guide', () => {
  it('splits words as the shell does', () => {
    const { words, comment } = splitWords(`curl -s 'a b' "x$HOME\\"y" \${T}z # note`)
    expect(words.map((w) => expandWord(w, { HOME: '/h', T: 't' }))).toEqual([
      'curl',
      '-s',
      'a b',
      'x/h"y',
      'tz',
    ])
    expect(comment).toBe('note')
    expect(() => expandWord(splitWords('$NOPE').words[0] ?? [], {})).toThrow(/NOPE/)
  })

  it('joins continuations, and reads VAR=$(command)', () => {
    const cmds = shellCommands(
      "TOKEN=$(npm run -s emu -- login)  # a token (see below)\ncurl -s \\\n  -X POST 'u'",
      10,
    )
    expect(cmds.map((c) => [c.assign, c.line, c.comment])).toEqual([
      ['TOKEN', 12, 'a token (see below)'],
      [null, 13, ''],
    ])
    expect(cmds[1]?.words.length).toBe(5)
  })
})

/** Lines without their indentation, blank ones left out: formatting may indent a test in a describe. */
const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')

/** An example headed `// e2e/…`: each import is one of that file's, and the rest is in it as written. */
async function excerptProblem(block: CodeBlock, file: string): Promise<string | null> {
  const source = lines(await readFile(join(ROOT_DIR, file), 'utf8'))
  const shown = lines(block.text).slice(1)
  for (const imp of shown.filter((l) => l.startsWith('import '))) {
    if (!source.includes(imp)) return `${file} has no line ${imp}`
  }
  const body = shown.filter((l) => !l.startsWith('import '))
  const at = source.findIndex((_, i) => body.every((l, j) => source[i + j] === l))
  return at < 0 ? `${file} does not contain the example as written` : null
}

/**
 * Runs a script example as it is: its imports point into the repository (as from a file one level
 * below it), localhost:3000 is the test's server, and each `console.log(…) // → text` must print
 * that text.
 */
async function scriptProblem(block: CodeBlock): Promise<string | null> {
  const expected: string[] = []
  const printed: string[] = []
  const code = relocate(block.text)
    .replace(/from '\.\.\/([^']+)'/g, (_all, path: string) => `from '${join(ROOT_DIR, path)}'`)
    .replace(/console\.log\((.*)\) \/\/ → (.*)$/gm, (_all, args: string, want: string) => {
      expected.push(want.trim())
      return `;(globalThis as unknown as { __guideLog: (...a: unknown[]) => void }).__guideLog(${args})`
    })
  const dir = await mkdtemp(join(tmpdir(), 'emu-guide-ts-'))
  const file = join(dir, `example-${block.line}.ts`)
  await writeFile(file, code)
  const global = globalThis as unknown as { __guideLog?: (...a: unknown[]) => void }
  global.__guideLog = (...a) => printed.push(a.map(String).join(' '))
  try {
    await import(/* @vite-ignore */ file)
  } catch (err) {
    return `threw ${String(err)}`
  } finally {
    delete global.__guideLog
    await rm(dir, { recursive: true, force: true })
  }
  if (expected.length === 0) return 'prints nothing to check (console.log(…) // → what it prints)'
  return JSON.stringify(printed) === JSON.stringify(expected)
    ? null
    : `printed ${JSON.stringify(printed)}, the guide says ${JSON.stringify(expected)}`
}
