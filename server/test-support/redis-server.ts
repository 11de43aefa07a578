import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { createServer } from 'node:net'

/** Debian's redis-server, where the machine has it (`apt-get install redis-server`). */
const REDIS_SERVER = process.env.REDIS_SERVER_BIN ?? 'redis-server'

/**
 * Whether tests that need a real Redis can run here. Absent locally: they are skipped, saying why;
 * absent on CI (`CI` set): this throws, so a missing package fails the run instead of passing it.
 */
export function redisServerAvailable(): boolean {
  const found = spawnSync(REDIS_SERVER, ['--version'], { encoding: 'utf8' }).status === 0
  if (!found && process.env.CI) {
    throw new Error(`${REDIS_SERVER} not found: CI must run the Redis tests (apt-get install redis-server)`)
  }
  if (!found)
    console.warn(`${REDIS_SERVER} not found: the Redis tests are skipped (apt-get install redis-server)`)
  return found
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  if (!address || typeof address === 'string') throw new Error('no port')
  return address.port
}

export interface RedisServer {
  readonly url: string
  readonly port: number
  /** Stops it (the data goes with it: nothing is saved). */
  stop(): Promise<void>
  /** Holds it still (SIGSTOP): connections stay open, nothing answers. */
  pause(): void
  resume(): void
}

/**
 * A redis-server of the test's own on a free loopback port (or on `port`: one started again),
 * saving nothing; resolves once it accepts connections.
 */
export async function startRedisServer(port?: number): Promise<RedisServer> {
  port ??= await freePort()
  const child: ChildProcess = spawn(
    REDIS_SERVER,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  await new Promise<void>((resolve, reject) => {
    let out = ''
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${out}`)), 10_000)
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer)
        resolve()
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`redis-server exited with ${code}:\n${out}`))
    })
  })
  child.stdout?.resume()
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      if (child.exitCode !== null) return
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
      child.kill('SIGCONT')
      child.kill('SIGTERM')
      await exited
    },
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
  }
}
