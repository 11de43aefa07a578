import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { createServer, Socket } from 'node:net'

/** Where tests look for Redis; Debian's package puts it here. */
const REDIS_SERVER = process.env.REDIS_SERVER_BIN ?? '/usr/bin/redis-server'

/**
 * Fails with what to install when Redis is missing: the tests that need it always run (`.ci/run`
 * installs Debian's redis-server), never skipped.
 */
function requireRedisServer(): void {
  if (spawnSync(REDIS_SERVER, ['--version'], { encoding: 'utf8' }).status === 0) return
  throw new Error(
    `${REDIS_SERVER} not found: install Debian's redis-server (apt-get install redis-server), as .ci/run does`,
  )
}

/** A free loopback port, found by binding port 0. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket()
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
    socket.connect(port, '127.0.0.1')
  })
}

/** A redis-server of a test's own: no persistence, on a free loopback port. */
export interface TestRedis {
  readonly url: string
  readonly port: number
  /** Kills the server at once (SIGKILL): Redis going away in the middle of things. */
  kill(): Promise<void>
  /** Freezes it (SIGSTOP): connections stay open and nothing answers, a Redis that hangs. */
  pause(): void
  /** Lets a paused server go on (SIGCONT). */
  resume(): void
  /** Starts it again on the same port, empty (it keeps nothing on disk). */
  restart(): Promise<void>
  /** Stops it for good. */
  stop(): Promise<void>
}

export async function startRedisServer(): Promise<TestRedis> {
  requireRedisServer()
  const port = await freePort()
  let child: ChildProcess | null = null

  const launch = async () => {
    const proc = spawn(
      REDIS_SERVER,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    )
    child = proc
    let exited = false
    proc.once('exit', () => {
      exited = true
    })
    // Ready once it accepts connections: a bounded poll, not a sleep.
    for (let i = 0; i < 200; i++) {
      if (exited) throw new Error(`redis-server exited at start (port ${port})`)
      if (await accepts(port)) return
      await new Promise((r) => setTimeout(r, 25))
    }
    throw new Error(`redis-server did not start on port ${port}`)
  }
  const killNow = async () => {
    const proc = child
    child = null
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return
    await new Promise<void>((resolve) => {
      proc.once('exit', () => resolve())
      proc.kill('SIGKILL')
    })
  }

  await launch()
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill: killNow,
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
    restart: launch,
    stop: killNow,
  }
}

/** Polls `check` until it holds, at most `ms`: for what happens across processes and sockets. */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 5_000): Promise<void> {
  const until = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`condition not met within ${ms} ms`)
    await new Promise((r) => setTimeout(r, 10))
  }
}
