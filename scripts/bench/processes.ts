import { type ChildProcess, spawn } from 'node:child_process'
import { createServer } from 'node:net'

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
