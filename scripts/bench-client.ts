/**
 * Lighthouse (mobile: its default phone emulation and simulated slow-4G / 4× CPU throttling) on the
 * built client's /home, served by the built server in emulator mode with a throw-away database.
 * Prints the numbers against the targets; it measures, it does not fail.
 *
 * Two kinds of run: a first visit (a fresh browser profile: nothing cached) and a repeat visit (the
 * same kind of profile after one visit and a reload, so the service worker is installed and controls
 * the page; Lighthouse then keeps the profile's storage). Before the repeat runs it asks Chromium, as
 * Lighthouse's own installability audit did, whether the page can be installed (the manifest and the
 * service worker), and prints the answer.
 *
 *   npm run build && npm run bench:client [-- --runs 3 --path /home --save report.json]
 *
 * --save writes the last run's full Lighthouse result (open it in the Lighthouse viewer); the last
 * repeat visit's goes next to it as <name>.repeat.json.
 * --cpu-slowdown N replaces Lighthouse's 4× CPU slowdown, which assumes a fast desktop host; on a
 * slower host (benchmark index under 1000) the default overstates CPU time. The targets are judged on
 * whatever was run; the default run is the one that counts.
 *
 * Then the game page soak (scripts/bench/game-soak.ts): the block game's page, logged in, held open
 * for two hours of rounds on a fast world clock at 4× CPU slowdown, its JS heap and DOM nodes
 * sampled along the way and the latency of picking a bet measured. --no-soak leaves it out,
 * --soak-only runs it alone; --soak-hours H (default 2), --soak-interval-ms N (wall time between
 * steps of the clock, default 150) and --soak-cpu-slowdown N (default 4) change it.
 *
 * Uses Debian's Chromium (CHROME_PATH overrides /usr/bin/chromium); CLIENT_DIST, as for the server,
 * points at another client build, and SERVER_ENTRY (relative to the repository) at another server build.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { chromium } from '@playwright/test'
import { type LaunchedChrome, launch } from 'chrome-launcher'
import { formatSoak, runGameSoak } from './bench/game-soak'

const ROOT = resolve(fileURLToPath(import.meta.url), '../..')
const SERVER_ENTRY = resolve(ROOT, process.env.SERVER_ENTRY ?? 'dist/server/main.js')
const CLIENT_INDEX = join(process.env.CLIENT_DIST ?? join(ROOT, 'client/dist'), 'index.html')
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium'
const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]
const SERVER_READY_TIMEOUT_MS = 30_000
/** How long the repeat visit's warm-up waits for the service worker to install (it precaches the build). */
const SW_READY_TIMEOUT_MS = 60_000

/**
 * Lighthouse's default 4× CPU slowdown turns a high-end desktop (benchmark index 1500–2000) into a
 * mid-tier phone. Its throttling guide (github.com/GoogleChrome/lighthouse/blob/main/docs/throttling.md) suggests 2× from a low-end desktop or
 * high-end phone (800–1500) and 1× from a host that is itself mid-tier-phone fast (under 800).
 */
const CALIBRATED_BENCHMARK = 1500
export function suggestedCpuSlowdown(benchmarkIndex: number): number {
  if (benchmarkIndex >= CALIBRATED_BENCHMARK) return 4
  return benchmarkIndex >= 800 ? 2 : 1
}

/** Lighthouse scores vary from run to run; the median of a few is what gets compared. */
const DEFAULT_RUNS = 3

export const TARGETS = { score: 98, lcpMs: 1_600, cls: 0.05, repeatLcpMs: 800 } as const

export interface Metrics {
  score: number
  lcpMs: number
  cls: number
  tbtMs: number
  fcpMs: number
  /** Bytes over the wire, all resources / scripts only. */
  transferBytes: number
  scriptBytes: number
  /** Lighthouse's measure of this machine's CPU speed; its throttling assumes a fast desktop. */
  benchmarkIndex: number
  cpuSlowdown: number
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      const port = typeof address === 'object' && address ? address.port : 0
      probe.close(() => resolvePort(port))
    })
  })
}

async function startServer(port: number, dbDir: string): Promise<ChildProcess> {
  const server = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: ROOT,
    env: {
      ...process.env,
      MODE: 'emulator',
      HOST: '127.0.0.1',
      PORT: String(port),
      DB_PATH: join(dbDir, 'bench.db'),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  const exited = new Promise<never>((_, reject) =>
    server.once('exit', (code) => reject(new Error(`server exited early (code ${code})`))),
  )
  exited.catch(() => {})
  const deadline = Date.now() + SERVER_READY_TIMEOUT_MS
  while (Date.now() < deadline) {
    const ready = await Promise.race([
      fetch(`http://127.0.0.1:${port}/home`).then(
        (r) => r.ok,
        () => false,
      ),
      exited,
    ])
    if (ready) return server
    await sleep(200)
  }
  server.kill('SIGTERM')
  throw new Error(`server did not answer /home within ${SERVER_READY_TIMEOUT_MS} ms`)
}

function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return Promise.resolve()
  return new Promise((done) => {
    const force = setTimeout(() => server.kill('SIGKILL'), 10_000)
    server.once('exit', () => {
      clearTimeout(force)
      done()
    })
    server.kill('SIGTERM')
  })
}

/** Lighthouse's own "record the trace again" failures: the run tells nothing about the page. */
const TRACE_FAILURES = new Set(['NO_NAVSTART', 'NO_TRACING_STARTED'])
/** How many times one run is tried when the trace could not be recorded. */
const TRACE_ATTEMPTS = 3

class LighthouseRunError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(`Lighthouse: ${code} ${message}`)
  }
}

interface RunOptions {
  savePath: string | undefined
  cpuSlowdown: number | undefined
  /** A repeat visit: keep the service worker and caches the profile already has. */
  keepStorage: boolean
}

export interface Installability {
  /** Chromium's reasons the page cannot be installed; none means it can. */
  errors: string[]
  manifestUrl: string
  /** The service worker controlling the page after the reload. */
  controlled: boolean
}

/**
 * Visits the page as a player would the first time (load, service worker installs, a reload puts the
 * page under its control) and asks Chromium whether the app is installable, through the protocol
 * call Lighthouse's installability audit made (Page.getInstallabilityErrors).
 */
async function warmUp(url: string, chrome: LaunchedChrome): Promise<Installability> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`)
  try {
    const context = browser.contexts()[0] ?? (await browser.newContext())
    const page = await context.newPage()
    await page.goto(url, { waitUntil: 'load' })
    const ready = await page.evaluate(
      (ms) =>
        Promise.race([
          navigator.serviceWorker.ready.then(() => true),
          new Promise<boolean>((done) => setTimeout(() => done(false), ms)),
        ]),
      SW_READY_TIMEOUT_MS,
    )
    if (!ready) throw new Error(`no service worker became active within ${SW_READY_TIMEOUT_MS / 1000} s`)
    await page.reload({ waitUntil: 'load' })
    const controlled = await page.evaluate(() => navigator.serviceWorker.controller !== null)
    // The page links its manifest once the first screen is up (lib/pwa.ts), not in index.html.
    await page.waitForSelector('link[rel="manifest"]', { state: 'attached', timeout: SW_READY_TIMEOUT_MS })
    const cdp = await context.newCDPSession(page)
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors')
    const manifest = await cdp.send('Page.getAppManifest')
    await page.close()
    return {
      errors: installabilityErrors.map(
        (e) =>
          `${e.errorId}${e.errorArguments.length > 0 ? ` (${e.errorArguments.map((a) => `${a.name}=${a.value}`).join(', ')})` : ''}`,
      ),
      manifestUrl: manifest.url,
      controlled,
    }
  } finally {
    // Disconnects; the browser (and the profile with the worker in it) stays for Lighthouse.
    await browser.close()
  }
}

export function formatInstallability(result: Installability): string {
  const ok = result.errors.length === 0 && result.manifestUrl !== '' && result.controlled
  return [
    `Installability (Chromium, as Lighthouse's audit asked it): ${ok ? 'pass' : 'FAIL'}`,
    `  manifest            ${result.manifestUrl || 'none linked'}`,
    `  service worker      ${result.controlled ? 'controls the page after a reload' : 'NOT controlling the page'}`,
    ...(result.errors.length > 0 ? result.errors.map((e) => `  error               ${e}`) : []),
  ].join('\n')
}

async function runLighthouse(url: string, chrome: LaunchedChrome, opts: RunOptions): Promise<Metrics> {
  // Loaded here: importing Lighthouse takes seconds, which a missing build need not wait for.
  const { default: lighthouse } = await import('lighthouse')
  const result = await lighthouse(url, {
    port: chrome.port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance'],
    disableStorageReset: opts.keepStorage,
    ...(opts.cpuSlowdown === undefined ? {} : { throttling: { cpuSlowdownMultiplier: opts.cpuSlowdown } }),
  })
  if (!result) throw new Error('Lighthouse returned no result')
  const { lhr } = result
  if (opts.savePath) writeFileSync(opts.savePath, JSON.stringify(lhr))
  if (lhr.runtimeError) throw new LighthouseRunError(lhr.runtimeError.code, lhr.runtimeError.message)
  for (const warning of lhr.runWarnings) process.stderr.write(`lighthouse warning: ${warning}\n`)
  const numeric = (id: string) => {
    const value = lhr.audits[id]?.numericValue
    if (value === undefined) throw new Error(`Lighthouse result has no ${id}`)
    return value
  }
  const score = lhr.categories.performance?.score
  if (score === null || score === undefined) throw new Error('Lighthouse gave no performance score')
  const summary = lhr.audits['resource-summary']?.details
  let scriptBytes = 0
  if (summary?.type === 'table') {
    for (const item of summary.items) {
      if (item.resourceType === 'script' && typeof item.transferSize === 'number')
        scriptBytes = item.transferSize
    }
  }
  return {
    score: Math.round(score * 100),
    lcpMs: numeric('largest-contentful-paint'),
    cls: numeric('cumulative-layout-shift'),
    tbtMs: numeric('total-blocking-time'),
    fcpMs: numeric('first-contentful-paint'),
    transferBytes: numeric('total-byte-weight'),
    scriptBytes,
    benchmarkIndex: lhr.environment.benchmarkIndex,
    cpuSlowdown: lhr.configSettings.throttling.cpuSlowdownMultiplier,
  }
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  const hi = sorted[mid] ?? Number.NaN
  return sorted.length % 2 === 1 ? hi : ((sorted[mid - 1] ?? hi) + hi) / 2
}

export function formatMetrics(path: string, runs: Metrics[], visit: 'first' | 'repeat' = 'first'): string {
  const m = (pick: (x: Metrics) => number) => median(runs.map(pick))
  const mark = (ok: boolean) => (ok ? 'pass' : 'FAIL')
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`
  const score = m((x) => x.score)
  const lcp = m((x) => x.lcpMs)
  const cls = m((x) => x.cls)
  const lcpTarget = visit === 'repeat' ? TARGETS.repeatLcpMs : TARGETS.lcpMs
  const rows: [string, string, string][] = [
    ['Performance score', String(score), `≥ ${TARGETS.score}  ${mark(score >= TARGETS.score)}`],
    ['LCP', s(lcp), `≤ ${s(lcpTarget)}  ${mark(lcp <= lcpTarget)}`],
    ['CLS', cls.toFixed(3), `≤ ${TARGETS.cls}  ${mark(cls <= TARGETS.cls)}`],
    ['TBT', `${Math.round(m((x) => x.tbtMs))} ms`, ''],
    ['FCP', s(m((x) => x.fcpMs)), ''],
    ['Transferred', `${(m((x) => x.transferBytes) / 1024).toFixed(1)} KB`, ''],
    ['  of it scripts', `${(m((x) => x.scriptBytes) / 1024).toFixed(1)} KB`, ''],
    ['CPU benchmark', String(Math.round(m((x) => x.benchmarkIndex))), 'host speed as Lighthouse measured it'],
  ]
  const header =
    `Lighthouse ${runs.length > 1 ? `median of ${runs.length} runs` : '1 run'}, mobile, ${path}, ` +
    `${visit === 'repeat' ? 'repeat visit (service worker installed)' : 'first visit (nothing cached)'}` +
    (runs.length > 1 ? ` (scores ${runs.map((r) => r.score).join(', ')})` : '') +
    `, CPU slowdown ${runs[0]?.cpuSlowdown ?? '?'}×`
  const benchmark = m((x) => x.benchmarkIndex)
  const suggested = suggestedCpuSlowdown(benchmark)
  const hint =
    suggested < (runs[0]?.cpuSlowdown ?? 4)
      ? [
          `  note: this host (benchmark index ${Math.round(benchmark)}) is slower than the desktop Lighthouse's ` +
            `CPU slowdown is calibrated for, so TBT and the paint times come out worse than on the intended ` +
            `mid-tier phone; --cpu-slowdown ${suggested} approximates that phone here`,
        ]
      : []
  return [
    header,
    ...rows.map(([name, value, target]) => `  ${name.padEnd(18)} ${value.padStart(9)}   ${target}`.trimEnd()),
    ...hint,
  ].join('\n')
}

/**
 * The pages are Chinese. A host with no font that has Chinese glyphs (as a bare Debian has none)
 * lays that text out from fallback fonts, which costs layout time a phone does not pay: the first
 * layout of /home took about 62 ms at 4× CPU slowdown without one and 40 ms with Noto Sans CJK, the
 * font Android phones draw Chinese with. Null when the host has one, or cannot tell (no fc-list).
 */
export function chineseFontNote(): string | null {
  let families: string
  try {
    families = execFileSync('fc-list', [':lang=zh', 'family'], { encoding: 'utf8' })
  } catch {
    return null
  }
  if (families.trim() !== '') return null
  return (
    'note: this host has no font with Chinese glyphs (fc-list :lang=zh lists none), so the text is laid out ' +
    'from fallback fonts and the paint times come out worse than on a phone; ' +
    '`apt-get install fonts-noto-cjk` (the CJK font Android uses) measures what a phone draws'
  )
}

interface Args {
  runs: number
  path: string
  save: string | undefined
  cpuSlowdown: number | undefined
  lighthouse: boolean
  soak: { hours: number; intervalMs: number; cpuSlowdown: number } | null
}

function positive(flag: string, text: string | undefined): number {
  const value = Number(text)
  if (!(value > 0)) throw new Error(`${flag} needs a positive number`)
  return value
}

function parseArgs(argv: string[]): Args {
  let runs = DEFAULT_RUNS
  let path = '/home'
  let save: string | undefined
  let cpuSlowdown: number | undefined
  let lighthouse = true
  let soak: Args['soak'] = { hours: 2, intervalMs: 150, cpuSlowdown: 4 }
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--runs') runs = Math.max(1, Number.parseInt(argv[++i] ?? '', 10) || DEFAULT_RUNS)
    else if (argv[i] === '--path') path = argv[++i] ?? path
    else if (argv[i] === '--save') save = argv[++i]
    else if (argv[i] === '--cpu-slowdown') {
      const value = Number(argv[++i])
      if (!(value > 0)) throw new Error('--cpu-slowdown needs a positive number')
      cpuSlowdown = value
    } else if (argv[i] === '--no-soak') soak = null
    else if (argv[i] === '--soak-only') lighthouse = false
    else if (argv[i] === '--soak-hours' && soak) soak.hours = positive('--soak-hours', argv[++i])
    else if (argv[i] === '--soak-interval-ms' && soak)
      soak.intervalMs = positive('--soak-interval-ms', argv[++i])
    else if (argv[i] === '--soak-cpu-slowdown' && soak)
      soak.cpuSlowdown = positive('--soak-cpu-slowdown', argv[++i])
  }
  if (!lighthouse && !soak) throw new Error('--soak-only and --no-soak leave nothing to run')
  return { runs, path, save: save === undefined ? undefined : resolve(save), cpuSlowdown, lighthouse, soak }
}

async function main(): Promise<void> {
  const { runs, path, save, cpuSlowdown, lighthouse, soak } = parseArgs(process.argv.slice(2))
  const missing = [CLIENT_INDEX, SERVER_ENTRY].filter((f) => !existsSync(f))
  if (missing.length > 0) {
    process.stderr.write(`bench-client: missing ${missing.join(', ')}; run \`npm run build\` first\n`)
    process.exitCode = 1
    return
  }
  if (!existsSync(CHROME_PATH)) {
    process.stderr.write(`bench-client: no Chromium at ${CHROME_PATH} (set CHROME_PATH)\n`)
    process.exitCode = 1
    return
  }

  const tmp = mkdtempSync(join(tmpdir(), 'bench-client-'))
  let server: ChildProcess | undefined
  let chrome: LaunchedChrome | undefined
  const cleanUp = async () => {
    chrome?.kill()
    chrome = undefined
    if (server) await stopServer(server)
    server = undefined
    rmSync(tmp, { recursive: true, force: true })
  }
  const onSignal = () => {
    void cleanUp().then(() => process.exit(130))
  }
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)

  try {
    const port = await freePort()
    if (lighthouse) server = await startServer(port, tmp)
    const url = `http://127.0.0.1:${port}${path}`
    let installability: Installability | undefined
    const measure = async (visit: 'first' | 'repeat'): Promise<Metrics[]> => {
      const results: Metrics[] = []
      for (let i = 0; i < runs; i++) {
        for (let attempt = 1; ; attempt++) {
          // A fresh profile per run: nothing cached, like a first visit (the repeat visit makes its one).
          const profile = mkdtempSync(join(tmp, 'chrome-'))
          chrome = await launch({
            chromePath: CHROME_PATH,
            chromeFlags: [...CHROME_FLAGS],
            userDataDir: profile,
            logLevel: 'silent',
          })
          try {
            if (visit === 'repeat') {
              // Every repeat run's profile gets its first visit; the first answer is the one printed.
              const checked = await warmUp(url, chrome)
              installability ??= checked
            }
            const savePath = save && visit === 'repeat' ? save.replace(/(\.json)?$/, '.repeat.json') : save
            results.push(
              await runLighthouse(url, chrome, { savePath, cpuSlowdown, keepStorage: visit === 'repeat' }),
            )
            break
          } catch (err) {
            if (
              !(err instanceof LighthouseRunError && TRACE_FAILURES.has(err.code)) ||
              attempt >= TRACE_ATTEMPTS
            )
              throw err
            process.stderr.write(
              `bench-client: ${visit} visit run ${i + 1}: ${err.code}, the trace was not recorded; running it again\n`,
            )
          } finally {
            chrome.kill()
            chrome = undefined
          }
        }
      }
      return results
    }
    const fontNote = chineseFontNote()
    if (fontNote) process.stdout.write(`${fontNote}\n\n`)
    if (lighthouse) {
      process.stdout.write(`${formatMetrics(path, await measure('first'), 'first')}\n\n`)
      const repeat = await measure('repeat')
      if (installability) process.stdout.write(`${formatInstallability(installability)}\n\n`)
      process.stdout.write(`${formatMetrics(path, repeat, 'repeat')}\n\n`)
    }
    if (soak) {
      // A server of its own: the soak freezes and moves the world clock.
      if (server) await stopServer(server)
      const soakPort = await freePort()
      server = await startServer(soakPort, mkdtempSync(join(tmp, 'soak-')))
      const result = await runGameSoak(
        {
          base: `http://127.0.0.1:${soakPort}`,
          chromePath: CHROME_PATH,
          stepMs: 3_000,
          sampleMinutes: 10,
          ...soak,
        },
        (line) => process.stdout.write(`${line}\n`),
      )
      process.stdout.write(`${formatSoak(result)}\n`)
    }
  } finally {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
    await cleanUp()
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    process.stderr.write(`bench-client: ${err instanceof Error ? err.message : String(err)}\n`)
    process.exitCode = 1
  })
}
