import { execFile } from 'node:child_process'
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { type LiveServer, startLive } from '@server/fault/live-servers'
import { ROOT_DIR } from '@server/paths'
import { scenarioSchema } from '@shared/emu-control'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EmuClient } from '../../../scripts/emu/emu-client'
import { runCli } from '../../../scripts/emu-cli'
import { codeBlocks, expandWord, type ShellCommand, shellCommands, splitWords } from './guide-examples'

/**
 * Every copy-paste example of docs/testing.md, run literally against a started server, in the
 * order the guide gives them: each must succeed (exit code 0, or an envelope with code 1), unless
 * its comment says it is refused, in which case it must fail.
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
let host: string
/** A copy of fixtures/: the guide's examples write scenario files (recording), never into the repository. */
let fixtures: string

beforeAll(async () => {
  fixtures = await mkdtemp(join(tmpdir(), 'emu-guide-'))
  await cp(join(ROOT_DIR, 'fixtures'), fixtures, { recursive: true })
  live = await startLive('emulator', { GAME_CHAIN_LENGTH: '2000', FIXTURES_DIR: fixtures })
  host = new URL(live.url).host
}, 120_000)
afterAll(async () => {
  await live.close()
  await rm(fixtures, { recursive: true, force: true })
}, 120_000)

/** The guide's server address is localhost:3000; the test's is wherever it listens. */
const relocate = (text: string) =>
  text.replace(/http:\/\/localhost:3000/g, live.url).replace(/localhost:3000/g, host)

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
    const tailing = rest.includes('tail')
    if (tailing) setTimeout(() => stop.abort(), 100)
    const code = await runCli(rest.slice(2), {
      out: (l) => out.push(l),
      err: (l) => err.push(l),
      env,
      ...(tailing ? { signal: stop.signal } : {}),
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
    return { ok: code === 1, out: stdout, detail: stdout.slice(0, 400) }
  }
  throw new Error(`the guide test does not know how to run: ${argv.join(' ')}`)
}

/** Runs one example; answers what went wrong, or null. */
async function runExample(
  cmd: ShellCommand,
  env: Record<string, string | undefined>,
): Promise<string | null> {
  const argv = cmd.words.map((w) => relocate(expandWord(w, env)))
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
  if (cmd.assign) {
    const value = result.out.trim()
    if (value === '') return `${where}\n  printed nothing`
    env[cmd.assign] = value
  }
  return null
}

describe("the tester's guide", () => {
  it('runs every shell example as written', async () => {
    const blocks = codeBlocks(await readFile(GUIDE, 'utf8'))
    const env: Record<string, string | undefined> = { EMU_URL: live.url }
    let ran = 0
    const failed: string[] = []
    for (const block of blocks.filter((b) => b.lang === 'sh')) {
      for (const cmd of shellCommands(block.text, block.line)) {
        if (NOT_RUN.some((n) => n.test.test(cmd.source))) continue
        const problem = await runExample(cmd, env).catch((err: unknown) => `${cmd.source}\n  ${String(err)}`)
        if (problem) failed.push(problem)
        ran++
      }
    }
    expect(failed).toEqual([])
    expect(ran).toBeGreaterThan(60)
  }, 120_000)

  it('every JSON example is a valid scenario', async () => {
    const blocks = codeBlocks(await readFile(GUIDE, 'utf8')).filter((b) => b.lang === 'json')
    expect(blocks.length).toBeGreaterThan(0)
    for (const b of blocks) scenarioSchema.parse(JSON.parse(b.text))
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
