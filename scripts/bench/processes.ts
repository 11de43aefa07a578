import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { createServer } from 'node:net'
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
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
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

export function stopAll(): void {
  for (const c of children) c.kill('SIGTERM')
}

process.on('exit', stopAll)
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    stopAll()
    process.exit(130)
  })
}
