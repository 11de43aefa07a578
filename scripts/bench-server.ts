import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { freePort, pinLoadGenerator, serverEntry, start, stopAll, waitForHttp } from './bench/processes'

/**
 * Server benchmark. Each server runs in its own process, ours as `npm start` runs it (see
 * serverEntry); the load comes from this one.
 * Prints requests/s and p99 latency for an authenticated balance read in emulator mode and the
 * same call through proxy mode, as ratios to a plain Fastify route answering the same body,
 * and, when nginx is installed, our proxy against nginx in front of the same upstream.
 */

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 8)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32)
const TSX = ['--import', 'tsx']
const dir = mkdtempSync(join(tmpdir(), 'bench-server-'))

interface Result {
  name: string
  rps: number
  p99: number
  non2xx: number
}

interface Target {
  readonly name: string
  readonly url: string
  readonly headers: Record<string, string>
}

/**
 * Loads the targets in turns of one second each, DURATION_S turns, after a warm-up of each (JIT,
 * connection pools): every target sees the same share of whatever else the machine is doing, so
 * the ratios hold even when its speed drifts during the run. p99 is the median of the turns' p99.
 */
async function measure(targets: readonly Target[]): Promise<Result[]> {
  const run = (t: Target, duration: number) =>
    autocannon({ url: t.url, headers: t.headers, connections: CONNECTIONS, duration })
  for (const t of targets) await run(t, 2)
  const totals = targets.map(() => ({ requests: 0, seconds: 0, p99s: [] as number[], bad: 0 }))
  for (let turn = 0; turn < DURATION_S; turn++) {
    for (const [i, t] of targets.entries()) {
      const r = await run(t, 1)
      const total = totals[i]
      if (!total) continue
      total.requests += r.requests.total
      total.seconds += r.duration
      total.p99s.push(r.latency.p99)
      total.bad += r.non2xx + r.errors + r.timeouts
    }
  }
  return targets.map((t, i) => {
    const total = totals[i] ?? { requests: 0, seconds: 1, p99s: [], bad: 0 }
    const p99s = [...total.p99s].sort((a, b) => a - b)
    return {
      name: t.name,
      rps: total.requests / total.seconds,
      p99: p99s[Math.floor(p99s.length / 2)] ?? 0,
      non2xx: total.bad,
    }
  })
}

function startNginx(port: number, upstreamPort: number): (() => void) | null {
  const nginx = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p))
  if (!nginx) return null
  const conf = join(dir, 'nginx.conf')
  // Tuned as one would for a reverse proxy: upstream keep-alive, no access log, no buffering to disk.
  writeFileSync(
    conf,
    `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/nginx-error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  upstream app { server 127.0.0.1:${upstreamPort}; keepalive 64; }
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fcgi; uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  server {
    listen 127.0.0.1:${port};
    location /api/ {
      proxy_pass http://app;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
    }
  }
}
`,
  )
  execFileSync(nginx, ['-t', '-c', conf, '-p', dir], { stdio: 'ignore' })
  const child = start(nginx, ['-c', conf, '-p', dir, '-g', 'daemon off;'], {})
  return () => child.kill('SIGQUIT')
}

async function main(): Promise<void> {
  const [emuPort, proxyPort, basePort, nginxPort] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
    freePort(),
  ])
  const quiet = { LOG_LEVEL: 'warn', HOST: '127.0.0.1' }
  const server = serverEntry()
  const layout = pinLoadGenerator()
  start(process.execPath, server, {
    ...quiet,
    PORT: String(emuPort),
    DB_PATH: join(dir, 'emu.db'),
  })
  const emu = `http://127.0.0.1:${emuPort}`
  await waitForHttp(`${emu}/api/api2/announcement`)

  const form = new FormData()
  form.set('phone', '13800138000')
  form.set('password', 'demo1234')
  const login = (await (await fetch(`${emu}/api/login`, { method: 'POST', body: form })).json()) as {
    data: { token: string; player_id: number }
  }
  const { token, player_id } = login.data
  const path = `/api/api/getBalance?player_id=${player_id}`
  const body = await (await fetch(emu + path, { headers: { token } })).text()

  start(process.execPath, [...TSX, 'scripts/bench/plain-server.ts'], {
    PORT: String(basePort),
    BENCH_BODY: body,
    BENCH_PATH: '/api/api/getBalance',
  })
  start(process.execPath, server, {
    ...quiet,
    MODE: 'proxy',
    UPSTREAM_URL: emu,
    PORT: String(proxyPort),
  })
  const stopNginx = startNginx(nginxPort, emuPort)
  await waitForHttp(`http://127.0.0.1:${basePort}/`)
  await waitForHttp(`http://127.0.0.1:${proxyPort}/api/api2/announcement`)
  if (stopNginx) await waitForHttp(`http://127.0.0.1:${nginxPort}/api/api2/announcement`)

  const headers = { token }
  const targets: Target[] = [
    { name: 'plain Fastify (baseline)', url: `http://127.0.0.1:${basePort}${path}`, headers: {} },
    { name: 'emulator: GET getBalance', url: emu + path, headers },
    { name: 'proxy → emulator', url: `http://127.0.0.1:${proxyPort}${path}`, headers },
  ]
  if (stopNginx)
    targets.push({ name: 'nginx → emulator', url: `http://127.0.0.1:${nginxPort}${path}`, headers })
  const [baseline, emulator, proxy, nginx] = await measure(targets)
  stopNginx?.()
  if (!baseline || !emulator || !proxy) throw new Error('a target was not measured')

  const rows = [baseline, emulator, proxy, ...(nginx ? [nginx] : [])]
  console.log(
    `\nauthenticated balance read, ${CONNECTIONS} connections, ${DURATION_S} turns of 1 s each, interleaved, LOG_LEVEL=warn; ${layout}\n`,
  )
  console.log(
    'target'.padEnd(28),
    'req/s'.padStart(9),
    'p99 ms'.padStart(8),
    'vs baseline'.padStart(12),
    'errors'.padStart(7),
  )
  for (const r of rows) {
    console.log(
      r.name.padEnd(28),
      r.rps.toFixed(0).padStart(9),
      String(r.p99).padStart(8),
      `${(r.rps / baseline.rps).toFixed(2)}×`.padStart(12),
      String(r.non2xx).padStart(7),
    )
  }
  console.log()
  const ratio = emulator.rps / baseline.rps
  console.log(
    `emulator balance read: ${ratio.toFixed(2)}× baseline (target ≥ 0.60×) ${ratio >= 0.6 ? 'OK' : 'BELOW TARGET'}`,
  )
  console.log(`proxy mode: ${(proxy.rps / baseline.rps).toFixed(2)}× baseline`)
  if (nginx) {
    const vsNginx = proxy.rps / nginx.rps
    console.log(
      `proxy mode vs nginx: ${vsNginx.toFixed(2)}× (target ≥ 0.60×) ${vsNginx >= 0.6 ? 'OK' : 'BELOW TARGET'}`,
    )
  } else {
    console.log('nginx is not installed (apt-get install nginx-light): proxy-vs-nginx comparison skipped')
  }
}

main()
  .catch((err: unknown) => {
    console.error(err)
    process.exitCode = 1
  })
  .finally(() => {
    stopAll()
    rmSync(dir, { recursive: true, force: true })
  })
