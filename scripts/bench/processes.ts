import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createServer } from 'node:net'
import { availableParallelism } from 'node:os'
import { join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '../..')

/**
 * The server as `npm start` runs it (node on the esbuild bundle), built now from the current
 * source so the numbers are never those of a stale build; SERVER_ENTRY names an existing build
 * instead. Returns the arguments for node.
 */
export function serverEntry(): string[] {
  if (process.env.SERVER_ENTRY) return [resolve(ROOT, process.env.SERVER_ENTRY)]
  // Inside the repository, so that the bundle's npm imports resolve to node_modules.
  const outfile = join('dist', 'bench', 'server', 'main.js')
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build-server.ts', '--outfile', outfile], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  return [join(ROOT, outfile)]
}

const TASKSET = '/usr/bin/taskset'

/**
 * Where the benchmark runs. With two CPUs or more (and util-linux's taskset), the load generator
 * (this process) runs on CPU 0 and every server under test on CPU 1, baseline and contenders
 * alike: otherwise the load generator and the server's own threads (GC, I/O) take CPU from each
 * other, and what is measured is the scheduler. BENCH_PIN=0 leaves placement to the scheduler.
 */
const PINNED = process.env.BENCH_PIN !== '0' && availableParallelism() >= 2 && existsSync(TASKSET)

/** Pins this process to CPU 0 when the layout is pinned; returns the layout, for the report. */
export function pinLoadGenerator(): string {
  if (!PINNED) return 'placement left to the scheduler'
  execFileSync(TASKSET, ['-a', '-cp', '0', String(process.pid)], { stdio: 'ignore' })
  return 'load generator on CPU 0, servers on CPU 1 (BENCH_PIN=0: unpinned)'
}

/** A free port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address()
      const port = typeof address === 'object' && address ? address.port : 0
      srv.close(() => resolve(port))
    })
  })
}

/** Waits until an HTTP GET on url answers at all (any status). */
export async function waitForHttp(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      await fetch(url)
      return
    } catch {
      if (Date.now() > deadline) throw new Error(`nothing answered at ${url} within ${timeoutMs} ms`)
      await new Promise((r) => setTimeout(r, 100))
    }
  }
}

const children = new Set<ChildProcess>()

/** Starts a child process that is killed when this process exits. */
export function start(command: string, args: string[], env: Record<string, string>): ChildProcess {
  const [file, argv] = PINNED ? [TASKSET, ['-c', '1', command, ...args]] : [command, args]
  const child = spawn(file, argv, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString()
  })
  child.on('exit', (code) => {
    children.delete(child)
    if (code && code !== 0 && code !== 143)
      process.stderr.write(`${command} exited ${code}\n${stderr.slice(-2000)}\n`)
  })
  children.add(child)
  return child
}

export function stopAll(signal: NodeJS.Signals = 'SIGTERM'): void {
  for (const c of children) c.kill(signal)
}

process.on('exit', () => stopAll())
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    stopAll()
    process.exit(130)
  })
}
