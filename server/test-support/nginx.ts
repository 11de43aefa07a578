import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createConnection, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { ROOT_DIR } from '@server/paths'

/**
 * Debian's nginx with deploy/nginx.conf, started by the tests of several server processes on a free
 * loopback port (Redis: ./redis-server.ts). `.ci/run` installs it; where it is missing those tests
 * fail, saying what to install.
 */

const HOST = '127.0.0.1'

/** Where a program is, or null. */
function programPath(name: string, fallbacks: readonly string[] = []): string | null {
  for (const candidate of [...fallbacks, name]) {
    const found = spawnSync('sh', ['-c', `command -v "${candidate}"`], { encoding: 'utf8' })
    if (found.status === 0 && found.stdout.trim()) return found.stdout.trim()
  }
  return null
}

const NGINX = programPath('nginx', ['/usr/sbin/nginx'])

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer()
    probe.once('error', fail)
    probe.listen(0, HOST, () => {
      const address = probe.address()
      const port = typeof address === 'object' && address ? address.port : 0
      probe.close(() => done(port))
    })
  })
}

/** Resolves once something accepts TCP connections on the port; rejects when the process exits first or after 10 s. */
function untilListening(port: number, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 10_000
  return new Promise((done, fail) => {
    const attempt = () => {
      if (child.exitCode !== null) return fail(new Error(`exited with ${child.exitCode}:\n${output()}`))
      const socket = createConnection({ host: HOST, port })
      socket.once('connect', () => {
        socket.destroy()
        done()
      })
      socket.once('error', () => {
        socket.destroy()
        if (Date.now() > deadline) fail(new Error(`nothing listened on ${port} within 10 s:\n${output()}`))
        else setTimeout(attempt, 50)
      })
    }
    attempt()
  })
}

export interface Service {
  readonly port: number
  readonly process: ChildProcess
  /** Stops it and waits for it to exit. */
  stop(): Promise<void>
}

function stopper(child: ChildProcess, signal: NodeJS.Signals, cleanup: () => void): () => Promise<void> {
  return async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r))
      child.kill(signal)
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))])
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    }
    cleanup()
  }
}

function capture(child: ChildProcess): () => string {
  let log = ''
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-10_000)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  return () => log
}

/** deploy/nginx.conf, the file docs/deploy.md gives operators. */
const NGINX_CONF = resolve(ROOT_DIR, 'deploy', 'nginx.conf')

/**
 * deploy/nginx.conf as the tests run it: listening on `port`, in front of the processes on
 * `appPorts`, with every file nginx writes under `dir`. Nothing else in the file is changed.
 */
function nginxConfFor(text: string, port: number, appPorts: readonly number[], dir: string): string {
  const serverLines = /^(\s*)server 127\.0\.0\.1:\d+ (.*)$/gm
  const first = serverLines.exec(text)
  if (!first) throw new Error('deploy/nginx.conf has no `server 127.0.0.1:PORT …` line')
  const [indent, rest] = [first[1] ?? '', first[2] ?? '']
  const servers = appPorts.map((p) => `${indent}server 127.0.0.1:${p} ${rest}`).join('\n')
  const out = text
    .replace(/^\s*server 127\.0\.0\.1:\d+ .*\n/gm, '')
    .replace(/^(\s*upstream app \{\n(?:\s*#.*\n)*)/m, `$1${servers}\n`)
    .replace(/^(\s*)listen \d+;/m, `$1listen ${HOST}:${port};`)
    .replace(/^error_log .*;/m, `error_log ${join(dir, 'error.log')} warn;`)
    .replace(/^pid .*;/m, `pid ${join(dir, 'nginx.pid')};`)
    .replace(/client_body_temp_path .*;/, `client_body_temp_path ${join(dir, 'body')};`)
    .replace(/proxy_temp_path .*;/, `proxy_temp_path ${join(dir, 'proxy')};`)
    .replace(/^worker_processes .*;/m, 'worker_processes 1;')
  // Paths nginx was built with: the rest it may write (fastcgi, uwsgi, scgi) goes under `dir` too.
  return out.replace(
    /^http \{\n/m,
    `http {\n  fastcgi_temp_path ${join(dir, 'fastcgi')};\n  uwsgi_temp_path ${join(dir, 'uwsgi')};\n  scgi_temp_path ${join(dir, 'scgi')};\n`,
  )
}

/** nginx with deploy/nginx.conf in front of the processes on `appPorts`, on a free port. */
export async function startNginx(appPorts: readonly number[]): Promise<Service & { readonly base: string }> {
  if (!NGINX)
    throw new Error("nginx not found: install Debian's nginx (apt-get install nginx), as .ci/run does")
  const dir = mkdtempSync(join(tmpdir(), 'hashgame-nginx-'))
  for (const sub of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, sub))
  const port = await freePort()
  const conf = join(dir, 'nginx.conf')
  writeFileSync(conf, nginxConfFor(readFileSync(NGINX_CONF, 'utf8'), port, appPorts, dir))
  const child = spawn(NGINX, ['-p', dir, '-c', conf, '-e', join(dir, 'error.log'), '-g', 'daemon off;'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const output = capture(child)
  const log = () => {
    try {
      return `${output()}\n${readFileSync(join(dir, 'error.log'), 'utf8')}`
    } catch {
      return output()
    }
  }
  try {
    await untilListening(port, child, log)
  } catch (err) {
    child.kill('SIGKILL')
    rmSync(dir, { recursive: true, force: true })
    throw err
  }
  return {
    port,
    process: child,
    base: `http://${HOST}:${port}`,
    // SIGQUIT: nginx's graceful stop.
    stop: stopper(child, 'SIGQUIT', () => rmSync(dir, { recursive: true, force: true })),
  }
}
