import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

/** The built server as a child process, for the browser tests' global setup and the specs that start their own. */

const HOST = '127.0.0.1'
// Overridable so that several builds can be tested side by side.
export const SERVER_ENTRY = process.env.E2E_SERVER_ENTRY ?? 'dist/server/main.js'
export const CLIENT_DIST = process.env.E2E_CLIENT_DIST ?? 'client/dist'

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

/** Resolves once `base + ready` answers 2xx; throws with the server's output when it exits or takes 30 s. */
async function waitUntilUp(
  url: string,
  headers: Record<string, string>,
  child: ChildProcess,
  output: () => string,
): Promise<void> {
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}:\n${output()}`))),
  )
  exited.catch(() => {})
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) return exited
    try {
      const res = await Promise.race([fetch(url, { headers }), exited])
      if (res.ok) return
    } catch (err) {
      if (child.exitCode !== null) throw err
      // Not listening yet.
    }
    await Promise.race([new Promise((resolve) => setTimeout(resolve, 100)), exited])
  }
  throw new Error(`the server did not start within 30 s:\n${output()}`)
}

export interface Started {
  base: string
  port: number
  pid: number
  stop: () => Promise<void>
  /** Ends the process at once (SIGKILL), as a crash would, and waits for it to be gone. */
  kill: () => Promise<void>
}

/**
 * The built server on a free port with a fresh temporary database: in emulator mode unless `env`
 * says otherwise. Ready when `ready` (a path) answers 2xx, asked with `headers`.
 */
export async function startServer(
  opts: {
    env?: Record<string, string>
    ready?: string
    headers?: Record<string, string>
    /** The port to listen on (a free one when not given). */
    port?: number
  } = {},
): Promise<Started> {
  const dir = mkdtempSync(join(tmpdir(), 'hashgame-e2e-'))
  const port = opts.port ?? (await freePort())
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
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000)
  }
  server.stdout?.on('data', keep)
  server.stderr?.on('data', keep)

  try {
    await waitUntilUp(`${base}${opts.ready ?? '/__emu/state'}`, opts.headers ?? {}, server, () => log)
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
  const kill = async () => {
    if (server.exitCode !== null || server.signalCode !== null) return
    const exited = new Promise((resolve) => server.once('exit', resolve))
    server.kill('SIGKILL')
    await exited
  }
  return { base, port, pid: server.pid ?? 0, stop, kill }
}
