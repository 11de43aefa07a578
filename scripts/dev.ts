/**
 * `npm run dev`: the server in emulator mode (restarted on change by tsx watch) behind Vite's dev
 * server with hot reload. Vite forwards /api and /__emu to the server. Ctrl-C stops both.
 *
 *   PORT      Vite's port (default 5173)
 *   API_PORT  the server's port (default: a free one)
 *   DB_PATH   the emulator database (default: the server's own default, data/emulator.db)
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { createServer as createNetServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import { createServer } from 'vite'

const HOST = '127.0.0.1'

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer()
    probe.once('error', reject)
    probe.listen(0, HOST, () => {
      const address = probe.address()
      const port = typeof address === 'object' && address ? address.port : 0
      probe.close(() => resolve(port))
    })
  })
}

async function waitForServer(url: string, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const started = Date.now()
  while (Date.now() - started < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`)
    try {
      const res = await fetch(url)
      if (res.status < 500) return
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`the server did not answer at ${url} within ${timeoutMs} ms`)
}

const apiPort = Number(process.env.API_PORT) || (await freePort())
const apiTarget = `http://${HOST}:${apiPort}`

let vite: Awaited<ReturnType<typeof createServer>> | undefined
const tsxCli = fileURLToPath(import.meta.resolve('tsx/cli'))
const server = spawn(process.execPath, [tsxCli, 'watch', '--clear-screen=false', 'server/main.ts'], {
  stdio: 'inherit',
  env: { ...process.env, MODE: 'emulator', PORT: String(apiPort), HOST, DEV_API_TARGET: apiTarget },
})

let stopping = false
const stop = async (code: number) => {
  if (stopping) return
  stopping = true
  server.kill('SIGTERM')
  await vite?.close().catch(() => undefined)
  process.exit(code)
}
process.on('SIGINT', () => void stop(0))
process.on('SIGTERM', () => void stop(0))
server.on('exit', (code) => {
  if (!stopping) {
    console.error(`server exited (${code ?? 'signal'}); stopping`)
    void stop(1)
  }
})

try {
  await waitForServer(`${apiTarget}/__emu/state`, server)
  process.env.DEV_API_TARGET = apiTarget
  vite = await createServer({
    configFile: 'vite.config.ts',
    server: { port: Number(process.env.PORT) || 5173 },
  })
  await vite.listen()
  vite.printUrls()
  console.log(`  ➜  API:     ${apiTarget} (emulator mode; /api and /__emu are proxied)`)
} catch (err) {
  console.error(err instanceof Error ? err.message : err)
  await stop(1)
}
