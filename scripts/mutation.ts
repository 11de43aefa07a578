/**
 * Mutation testing (docs/testing-the-code.md): StrykerJS changes one line of a module at a time —
 * a `<` into `<=`, a condition into `true`, a statement removed — and runs the module's own tests
 * against each change. A change no test notices (a surviving mutant) is code the tests do not guard.
 *
 *   npm run test:mutation                 # every module, one after the other
 *   npm run test:mutation -- ledger idempotency   # only these
 *   npm run test:mutation -- --list       # the modules and their files
 *   npm run test:mutation -- --summary    # the table from each module's last report
 *
 * Each module mutates only its own files and runs only its own test files, one test runner at a
 * time (MUTATION_CONCURRENCY, default 1), so a run stays small on a shared 2-core machine. Prints a
 * table at the end; the reports (HTML and JSON, every mutant with its status) are written to
 * reports/mutation/<module>.html|json. Not part of `npm test`: a full run takes long.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Stryker as StrykerRun } from '@stryker-mutator/core'

export interface MutationModule {
  readonly name: string
  /** What it guards, for --list. */
  readonly about: string
  /** Files (or `file:from-to` line ranges) whose code is mutated. */
  readonly mutate: readonly string[]
  /** The test files run against each mutant. */
  readonly tests: readonly string[]
}

/** The modules where a wrong line costs money or trust. */
export const MODULES: readonly MutationModule[] = [
  {
    name: 'ledger',
    about: 'every balance change is a ledger row in the same transaction',
    mutate: ['server/emulator/ledger/ledger-repository.ts'],
    tests: ['server/emulator/ledger/ledger-repository.test.ts'],
  },
  {
    name: 'password-guard',
    about: 'wrong-password counting, locks and their expiry (login and payment password)',
    mutate: ['server/emulator/account/password-guard.ts'],
    tests: ['server/emulator/account/password-guard.test.ts', 'server/emulator/account/format-wait.test.ts'],
  },
  {
    name: 'idempotency',
    about: 'a money-moving request retried with the same key runs once',
    mutate: ['server/http/idempotency.ts'],
    tests: ['server/http/idempotency-store.test.ts', 'server/http/idempotency.test.ts'],
  },
  {
    name: 'odds',
    about: 'odds derived from the exact chances of every bet type and the declared house edge',
    mutate: ['shared/games/odds.ts'],
    // The chances are worked out once per game and kept, and each mutant runs only the tests that
    // reached its code: the first to ask for a game's chances. odds-chances.test.ts checks each
    // game's chances in the test that works them out.
    tests: ['shared/games/odds-chances.test.ts', 'shared/games/odds.test.ts'],
  },
  {
    name: 'outcome',
    about: 'what a block hash draws, and which bets it wins, loses or refunds (server and client)',
    mutate: ['shared/games/outcome.ts', 'shared/games/bet-types.ts', 'shared/games/hash-reading.ts'],
    tests: ['shared/games/outcome.test.ts', 'shared/games/bet-types.test.ts'],
  },
  {
    name: 'settlement',
    about: 'settling a drawn round: wins, refunds and their ledger rows',
    // BetSettlement, and the repository's statement that settles a round (with its payout rule).
    mutate: [
      'server/emulator/games/bet-settlement.ts',
      'server/emulator/games/game-repository.ts:56',
      'server/emulator/games/game-repository.ts:199-212',
    ],
    tests: ['server/emulator/games/bet-settlement.test.ts'],
  },
  {
    name: 'sealing',
    about: 'round times and sealing, and the committed hash chain the draws come from',
    mutate: ['shared/games/rounds.ts', 'shared/games/chain.ts'],
    tests: ['shared/games/rounds.test.ts', 'shared/games/chain.test.ts'],
  },
  {
    name: 'fault-matcher',
    about: "which fault rule fires on a call, and the rules' store",
    mutate: ['server/fault/fault-matching.ts', 'server/fault/rule-store.ts'],
    tests: ['server/fault/fault-matching.test.ts', 'server/fault/rule-store.test.ts'],
  },
  {
    name: 'guards',
    about: 'the cross-site guard, the control API admin guard and the request target check',
    mutate: [
      'server/plugins/security.ts',
      'server/http/cross-site.ts',
      'server/fault/admin-access.ts',
      'server/plugins/request-target.ts',
    ],
    tests: [
      'server/plugins/guards.test.ts',
      'server/http/cross-site.test.ts',
      'server/fault/admin-access.test.ts',
    ],
  },
  {
    name: 'client-session',
    about: "the client's session: what login, start-up, a lost session and logout keep and remove",
    mutate: [
      'client/src/lib/session-store.ts',
      'client/src/lib/session-actions.ts',
      'client/src/lib/refusal.ts',
    ],
    tests: [
      'client/src/lib/session-store.test.ts',
      'client/src/lib/session-flows.test.ts',
      'client/src/lib/session-actions.test.ts',
      'client/src/lib/refusal.test.ts',
    ],
  },
  {
    name: 'client-http',
    about: "the client's one HTTP client: how it reads every failure, and what it shows and does",
    mutate: ['client/src/lib/http.ts'],
    tests: ['client/src/lib/http-answers.test.ts', 'client/src/lib/http.test.ts'],
  },
]

export const REPORT_DIR = 'reports/mutation'

interface Row {
  readonly module: string
  readonly mutants: number
  readonly killed: number
  readonly survived: number
  readonly noCoverage: number
  readonly timeout: number
  readonly errors: number
  readonly score: string
}

/** Mutation score as Stryker counts it: detected (killed, timed out) over valid mutants. */
export function tally(module: string, statuses: readonly string[]): Row {
  const count = (s: string) => statuses.filter((x) => x === s).length
  const killed = count('Killed')
  const timeout = count('Timeout')
  const survived = count('Survived')
  const noCoverage = count('NoCoverage')
  const errors = count('RuntimeError') + count('CompileError')
  const valid = killed + timeout + survived + noCoverage
  const score = valid === 0 ? 'n/a' : `${((100 * (killed + timeout)) / valid).toFixed(1)} %`
  return { module, mutants: valid, killed, survived, noCoverage, timeout, errors, score }
}

export function table(rows: readonly Row[]): string {
  const head = ['module', 'mutants', 'killed', 'survived', 'no coverage', 'timeout', 'errors', 'score']
  const body = rows.map((r) => [
    r.module,
    ...[r.mutants, r.killed, r.survived, r.noCoverage, r.timeout, r.errors].map(String),
    r.score,
  ])
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] ?? '').length)))
  const line = (cells: readonly string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)].join('\n')
}

/** The modules named on the command line (all when none is), or an error naming the unknown ones. */
export function pick(names: readonly string[]): readonly MutationModule[] {
  if (names.length === 0) return MODULES
  const unknown = names.filter((n) => !MODULES.some((m) => m.name === n))
  if (unknown.length > 0) {
    throw new Error(`unknown module ${unknown.join(', ')}; known: ${MODULES.map((m) => m.name).join(', ')}`)
  }
  return MODULES.filter((m) => names.includes(m.name))
}

type LogLevel = NonNullable<NonNullable<ConstructorParameters<typeof StrykerRun>[0]>['logLevel']>

/** MUTATION_LOG_LEVEL (e.g. debug, trace) for Stryker's console and its stryker.log; else `fallback`. */
function logLevel(fallback: string): LogLevel {
  const asked = process.env.MUTATION_LOG_LEVEL
  const levels: readonly string[] = ['off', 'fatal', 'error', 'warn', 'info', 'debug', 'trace']
  // Stryker's LogLevel is a const enum of these strings.
  return (asked !== undefined && levels.includes(asked) ? asked : fallback) as unknown as LogLevel
}

async function runModule(m: MutationModule): Promise<Row> {
  // vitest.mutation.config.ts runs these files and no others.
  process.env.MUTATION_TESTS = m.tests.join(',')
  const { Stryker } = await import('@stryker-mutator/core')
  const concurrency = Number(process.env.MUTATION_CONCURRENCY ?? 1)
  const stryker = new Stryker({
    testRunner: 'vitest',
    vitest: { configFile: 'vitest.mutation.config.ts', related: false, pool: 'forks' },
    mutate: [...m.mutate],
    coverageAnalysis: 'perTest',
    concurrency,
    // A busy shared machine: give a slow run room before calling it an endless loop.
    timeoutMS: 10_000,
    timeoutFactor: 2,
    tempDirName: '.stryker-tmp',
    // Stryker rewrites the tsconfig.json it copies with TypeScript's JavaScript API, which TypeScript 7
    // (the native compiler) no longer has; ours has no paths to rewrite (no extends, no references),
    // so it is pointed at a file that does not exist and left as it is.
    tsconfigFile: 'tsconfig.stryker-skips-this.json',
    // The sandbox needs the sources and configs only.
    ignorePatterns: [
      'dist',
      'client/dist',
      'reports',
      'e2e',
      'docs',
      'test-results',
      'playwright-report',
      'data',
    ],
    reporters: ['progress', 'clear-text', 'html', 'json'],
    htmlReporter: { fileName: join(REPORT_DIR, `${m.name}.html`) },
    jsonReporter: { fileName: join(REPORT_DIR, `${m.name}.json`) },
    clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
    incremental: false,
    cleanTempDir: process.env.MUTATION_KEEP_SANDBOX === '1' ? false : 'always',
    logLevel: logLevel('warn'),
    fileLogLevel: logLevel('off'),
  })
  const results = await stryker.runMutationTest()
  return tally(
    m.name,
    results.map((r) => r.status),
  )
}

/** The module's row from its last run's JSON report, when there is one. */
function lastReport(name: string): Row | null {
  const path = join(REPORT_DIR, `${name}.json`)
  if (!existsSync(path)) return null
  const report = JSON.parse(readFileSync(path, 'utf8')) as {
    files: Record<string, { mutants: { status: string }[] }>
  }
  return tally(
    name,
    Object.values(report.files).flatMap((f) => f.mutants.map((m) => m.status)),
  )
}

async function main(argv: readonly string[]): Promise<void> {
  if (argv.includes('--list')) {
    for (const m of MODULES) {
      console.log(`${m.name}: ${m.about}\n  mutate: ${m.mutate.join(' ')}\n  tests:  ${m.tests.join(' ')}`)
    }
    return
  }
  if (argv.includes('--summary')) {
    console.log(table(MODULES.flatMap((m) => lastReport(m.name) ?? [])))
    return
  }
  const modules = pick(argv)
  mkdirSync(REPORT_DIR, { recursive: true })
  const rows: Row[] = []
  for (const m of modules) {
    for (const f of [...m.mutate, ...m.tests]) {
      const path = f.replace(/:\d+(-\d+)?$/, '')
      if (!existsSync(path)) throw new Error(`${m.name}: no file ${path}`)
    }
    console.log(`\n=== ${m.name}: ${m.about}`)
    rows.push(await runModule(m))
    console.log(table(rows))
  }
  const summary = table(rows)
  writeFileSync(join(REPORT_DIR, 'summary.md'), `${new Date().toISOString()}\n\n${summary}\n`)
  console.log(`\n${summary}`)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2)).catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e)
    process.exit(1)
  })
}
