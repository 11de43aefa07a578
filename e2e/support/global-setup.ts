import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const HOST = '127.0.0.1'
// Overridable so that several builds can be tested side by side.
const SERVER_ENTRY = process.env.E2E_SERVER_ENTRY ?? 'dist/server/main.js'
const CLIENT_DIST = process.env.E2E_CLIENT_DIST ?? 'client/dist'
const CLIENT_INDEX = join(CLIENT_DIST, 'index.html')

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, HOST, () => {
      const address = probe.address()
      const port = typeof address === 'object' && address ? address.port : 0
      probe.close(() => resolve(port))
    })
  })
}

async function waitUntilUp(base: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${output()}`)
    try {
      const res = await fetch(`${base}/__emu/state`)
      if (res.ok) return
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`the server did not start within 30 s:\n${output()}`)
}

interface Started {
  base: string
  stop: () => Promise<void>
}

/** The built server in emulator mode on a free port with a fresh temporary database. */
async function startServer(): Promise<Started> {
  const dir = mkdtempSync(join(tmpdir(), 'hashgame-e2e-'))
  const port = await freePort()
  const base = `http://${HOST}:${port}`
  let log = ''
  const server = spawn(process.execPath, [SERVER_ENTRY], {
    env: {
      ...process.env,
      MODE: 'emulator',
      HOST,
      PORT: String(port),
      DB_PATH: join(dir, 'emulator.db'),
      CLIENT_DIST: resolve(CLIENT_DIST),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_LOGIN: '100000',
      RATE_LIMIT_REGISTER: '100000',
      RATE_LIMIT_SMS: '100000',
      // Browser tests share a busy machine with Chromium; load shedding is for production (its own
      // tests are in server/ops/operations.test.ts), and SIGTERM need not wait out a drain window.
      PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
      SHUTDOWN_DRAIN_MS: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000)
  }
  server.stdout?.on('data', keep)
  server.stderr?.on('data', keep)

  try {
    await waitUntilUp(base, server, () => log)
  } catch (err) {
    server.kill('SIGKILL')
    rmSync(dir, { recursive: true, force: true })
    throw err
  }

  const stop = async () => {
    if (server.exitCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve))
      server.kill('SIGTERM')
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))])
      if (server.exitCode === null) server.kill('SIGKILL')
    }
    rmSync(dir, { recursive: true, force: true })
  }
  return { base, stop }
}

/**
 * Starts two servers against the built client: the one most specs share (E2E_BASE_URL), each test
 * in its own scope; and one for the specs that move the world clock (E2E_WORLD_CLOCK_URL, the
 * `world-clock` project in playwright.config.ts), whose draws, deposit confirmations and
 * withdrawal reviews would otherwise jump ahead under the other specs' feet.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  for (const file of [SERVER_ENTRY, CLIENT_INDEX]) {
    if (!existsSync(file))
      throw new Error(`${file} is missing: run \`npm run build\` before the browser tests`)
  }
  const servers = await Promise.allSettled([startServer(), startServer()])
  const started = servers.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []))
  const failed = servers.find((s) => s.status === 'rejected')
  if (failed) {
    await Promise.all(started.map((s) => s.stop()))
    throw failed.reason
  }
  const [shared, worldClock] = started as [Started, Started]
  process.env.E2E_BASE_URL = shared.base
  process.env.E2E_WORLD_CLOCK_URL = worldClock.base
  return async () => {
    await Promise.all(started.map((s) => s.stop()))
  }
}
