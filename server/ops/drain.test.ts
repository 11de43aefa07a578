import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, describe, expect, it } from 'vitest'
import { ROOT_DIR } from '../paths'

/**
 * SIGTERM under load, on the real entry point (server/main.ts in a process of its own): the server
 * stops being ready, keeps serving through the drain window, lets what is in flight finish and exits 0.
 * Load runs on kept-alive connections the whole time; the only failures allowed are new connections
 * refused once the window is over (`reusedSocket` false on the failed request).
 */

const dir = mkdtempSync(join(tmpdir(), 'drain-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Starts the server; resolves with the process and its port once it listens. */
async function start(): Promise<{ child: ChildProcess; port: number; lines: string[] }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT_DIR, 'server/main.ts')], {
    cwd: ROOT_DIR,
    env: {
      ...process.env,
      MODE: 'emulator',
      PORT: '0',
      HOST: '127.0.0.1',
      DB_PATH: join(dir, 'emulator.db'),
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'info',
      SHUTDOWN_DRAIN_MS: '1500',
      GAME_CHAIN_LENGTH: '1000',
      PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const lines: string[] = []
  const reader = createInterface({ input: child.stdout as NodeJS.ReadableStream })
  for await (const line of reader) {
    lines.push(line)
    const at = /mode at http:\/\/127\.0\.0\.1:(\d+)/.exec(line)
    if (at) {
      reader.on('line', (l) => lines.push(l))
      return { child, port: Number(at[1]), lines }
    }
  }
  throw new Error(`the server did not start:\n${lines.join('\n')}`)
}

interface Outcome {
  ok: number
  failed: string[]
  refusedNew: number
}

/** One GET on the agent's connections; classifies how it ended. */
function get(agent: Agent, port: number, path: string, out: Outcome): Promise<'go' | 'stop'> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
      res.resume()
      res.on('end', () => {
        if (res.statusCode === 200) out.ok++
        else out.failed.push(`HTTP ${res.statusCode} on ${path}`)
        resolve('go')
      })
    })
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (!req.reusedSocket && (err.code === 'ECONNREFUSED' || err.code === 'ECONNRESET')) {
        out.refusedNew++
        resolve('stop')
        return
      }
      out.failed.push(
        `${err.code ?? err.message} on ${req.reusedSocket ? 'a kept-alive' : 'a new'} connection`,
      )
      resolve('stop')
    })
    req.end()
  })
}

describe('SIGTERM under load', () => {
  it('drops nothing: not ready at once, served through the window, in-flight finished, exit 0', async () => {
    const { child, port, lines } = await start()
    const agent = new Agent({ keepAlive: true, maxSockets: 6 })
    const out: Outcome = { ok: 0, failed: [], refusedNew: 0 }
    let signalled = false
    const readiness: number[] = []
    const exited = once(child, 'exit')

    const loop = async (path: string) => {
      for (;;) {
        if ((await get(agent, port, path, out)) === 'stop') return
        if (!signalled && out.ok >= 200) {
          signalled = true
          child.kill('SIGTERM')
        }
      }
    }
    const watchReady = async () => {
      // A fresh connection each time, as a balancer's health check: every answer until refused.
      const probe = new Agent({ keepAlive: false })
      for (;;) {
        const status = await new Promise<number>((resolve) => {
          const req = request({ host: '127.0.0.1', port, path: '/readyz', agent: probe }, (res) => {
            res.resume()
            res.on('end', () => resolve(res.statusCode ?? 0))
          })
          req.on('error', () => resolve(0))
          req.end()
        })
        if (status === 0) return
        readiness.push(status)
        await new Promise((resolve) => setImmediate(resolve))
      }
    }
    await Promise.all([
      loop('/api/api2/announcement'),
      loop('/api/api2/announcement'),
      loop('/livez'),
      loop('/api/api2/announcement'),
      watchReady(),
    ])
    const [code] = await exited
    agent.destroy()

    expect(out.failed, JSON.stringify(out.failed)).toEqual([])
    expect(code).toBe(0)
    expect(signalled).toBe(true)
    // Served well past the signal: the window is 1.5 s of load.
    expect(out.ok).toBeGreaterThan(400)
    // Ready before the signal, not ready after it, and still answering while draining.
    expect(readiness).toContain(200)
    expect(readiness.at(-1)).toBe(503)
    expect(lines.some((l) => l.includes('draining: not ready, still serving'))).toBe(true)
  })
})
