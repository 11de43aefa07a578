import { test as base, expect } from '@playwright/test'
import { type Service, startNginx } from '@server/test-support/nginx'
import { startRedisServer, type TestRedis } from '@server/test-support/redis-server'
import { announcement, login, register } from '@shared/contract/account'
import { CODE } from '@shared/envelope'
import { type SseFrame, SseParser } from '@shared/sse'
import { Redis } from 'ioredis'
import { EmuClient } from '../scripts/emu/emu-client'
import { api } from './support/api'
import { DEMO } from './support/emu'
import { type Started, startServer } from './support/server-process'

/**
 * Several server processes, one behaviour (docs/deploy.md): three proxy-mode processes with Redis
 * behind nginx (deploy/nginx.conf, as operators are given it), in front of an emulator as the
 * operator's backend. A draw reaches streams on every process, the login limit counts across them,
 * a tester's fault added through one fires through all, a process killed loses no event a client
 * then reconnects for, and Redis killed leaves no request hanging. Real processes, real time: the
 * block game draws every 3 s.
 */

const ADMIN = 'multi-process-admin-token'
const LOGIN_LIMIT = 6
const GAME = 'qukuai'

interface Deployment {
  upstream: Started
  redis: TestRedis
  procs: Started[]
  nginx: Service & { base: string }
}

const test = base.extend<object, { deployment: Deployment }>({
  deployment: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const stops: (() => Promise<void>)[] = []
      try {
        const upstream = await startServer()
        stops.push(upstream.stop)
        const redis = await startRedisServer()
        stops.push(redis.stop)
        const procs = await Promise.all(
          [0, 1, 2].map(() =>
            startServer({
              env: {
                MODE: 'proxy',
                UPSTREAM_URL: upstream.base,
                REDIS_URL: redis.url,
                EMU_ADMIN_TOKEN: ADMIN,
                TRUST_PROXY: 'loopback',
                RATE_LIMIT_LOGIN: String(LOGIN_LIMIT),
              },
              ready: '/readyz',
            }),
          ),
        )
        for (const p of procs) stops.push(p.stop)
        const nginx = await startNginx(procs.map((p) => p.port))
        stops.push(nginx.stop)
        await use({ upstream, redis, procs, nginx })
      } finally {
        for (const stop of stops.reverse()) await stop()
      }
    },
    { scope: 'worker', timeout: 90_000 },
  ],
})

/** Processes a test has killed (by pid): the later tests use the others. */
const killed = new Set<number>()

// One deployment for the file; Redis is killed by the last test.
test.describe.configure({ mode: 'serial' })

/** A stream read the way the app reads it: fetch with the token header, the body through the app's parser. */
function openStream(base: string, session: Session, lastEventId?: string) {
  const frames: SseFrame[] = []
  const waiters = new Set<() => void>()
  const abort = new AbortController()
  const parser = new SseParser({
    onEvent: (f) => {
      frames.push(f)
      for (const w of waiters) w()
    },
  })
  const headers: Record<string, string> = { token: session.token, accept: 'text/event-stream' }
  if (lastEventId) headers['last-event-id'] = lastEventId
  const opened = fetch(`${base}/api/stream?player_id=${session.player_id}`, {
    headers,
    signal: abort.signal,
  }).then(async (res) => {
    if (res.status !== 200) throw new Error(`the stream answered ${res.status}: ${await res.text()}`)
    const reader = res.body?.getReader()
    const decoder = new TextDecoder()
    void (async () => {
      try {
        for (;;) {
          const chunk = await reader?.read()
          if (!chunk || chunk.done) break
          parser.push(decoder.decode(chunk.value, { stream: true }))
        }
      } catch {
        // Aborted, or the process was killed.
      }
    })()
  })
  /** The first frame (from the start of the stream) that meets `test`, waiting up to `ms`. */
  const next = (test: (f: SseFrame) => boolean, ms = 15_000): Promise<SseFrame> =>
    new Promise((resolve, reject) => {
      const check = () => {
        const found = frames.find(test)
        if (!found) return
        clearTimeout(timer)
        waiters.delete(check)
        resolve(found)
      }
      const timer = setTimeout(() => {
        waiters.delete(check)
        reject(new Error(`no such event within ${ms} ms; got ${frames.map((f) => f.event).join(', ')}`))
      }, ms)
      waiters.add(check)
      check()
    })
  return { opened, frames, next, close: () => abort.abort() }
}

const drawOf = (f: SseFrame) => JSON.parse(f.data) as { game: string; round_id: string }
const isDraw = (f: SseFrame) => f.event === 'draw' && drawOf(f).game === GAME

/** A session as the app holds it: the stream is opened with its token and its player's id. */
interface Session {
  token: string
  player_id: number
}

async function logIn(base: string): Promise<Session> {
  const { token, player_id } = await api(login, {
    base,
    body: { phone: DEMO.phone, password: DEMO.password },
  })
  return { token, player_id }
}

test('a draw reaches the streams on every process, and through nginx, with one id', async ({
  deployment,
}) => {
  test.setTimeout(60_000)
  const { procs, nginx } = deployment
  const token = await logIn(nginx.base)
  const streams = [...procs.map((p) => openStream(p.base, token)), openStream(nginx.base, token)]
  await Promise.all(streams.map((s) => s.opened))
  await Promise.all(streams.map((s) => s.next((f) => f.event === 'snapshot')))
  const first = await streams[0]?.next(isDraw)
  if (!first) throw new Error('no draw')
  for (const s of streams) {
    const same = await s.next((f) => f.id === first.id)
    expect(same.event).toBe('draw')
    expect(drawOf(same).round_id).toBe(drawOf(first).round_id)
  }
  // Each draw once per stream, however many processes heard it.
  const rounds = streams[1]?.frames.filter(isDraw).map((f) => drawOf(f).round_id) ?? []
  expect(new Set(rounds).size).toBe(rounds.length)
  for (const s of streams) s.close()
})

test('the login limit counts across processes', async ({ deployment }) => {
  const { procs } = deployment
  // Its own client address (believed from loopback, TRUST_PROXY), so no other test's logins count.
  const from = '198.51.100.23'
  const attempt = (p: Started) =>
    fetch(`${p.base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
      body: JSON.stringify({ phone: '13912345678', password: 'not-the-password' }),
    })
  const codes: number[] = []
  for (let i = 0; i < LOGIN_LIMIT; i++) {
    const res = await attempt(procs[i % 3] as Started)
    codes.push(((await res.json()) as { code: number }).code)
  }
  expect(codes).not.toContain(42900)
  // One over the limit, on whichever process: refused, though no process alone saw more than 2.
  for (const p of procs) {
    const res = await attempt(p)
    expect(res.status).toBe(429)
    expect(await res.json()).toMatchObject({ code: 42900 })
  }
})

test('a fault rule added through one process fires through all, and removed through another stops on all', async ({
  deployment,
}) => {
  const { procs } = deployment
  const control = (p: Started) => new EmuClient({ url: p.base, adminToken: ADMIN })
  const rule = await control(procs[0] as Started).addFault({
    match: { path: announcement.path },
    action: { type: 'status', status: 503 },
  })
  const statusOn = async (p: Started) => (await fetch(`${p.base}${announcement.path}`)).status
  for (const p of procs) await expect.poll(() => statusOn(p), { timeout: 5_000 }).toBe(503)
  await control(procs[2] as Started).deleteFault(rule.id)
  for (const p of procs) await expect.poll(() => statusOn(p), { timeout: 5_000 }).toBe(200)
})

test('a process killed loses no event: the client reconnects through nginx and gets what it missed', async ({
  deployment,
}) => {
  test.setTimeout(90_000)
  const { procs, nginx } = deployment
  const token = await logIn(nginx.base)
  // The process that reads the upstream for all (its lease's owner names its pid): the hardest to lose.
  const redis = new Redis(deployment.redis.url)
  const owner = await redis.get('hashgame:lease:upstream-reader')
  redis.disconnect()
  const victim = procs.find((p) => owner?.split(':')[1] === String(p.pid))
  if (!victim) throw new Error(`no process holds the reader's lease (${owner})`)
  const others = procs.filter((p) => p !== victim)
  const before = openStream(victim.base, token)
  await before.opened
  const seen = await before.next(isDraw)
  await victim.kill()
  killed.add(victim.pid)
  before.close()
  // Draws go on while the client is away: a watcher on another process sees the next two.
  const watcher = openStream((others[0] as Started).base, token)
  await watcher.opened
  const missedTwo = await watcher.next(
    (f) => isDraw(f) && Number(drawOf(f).round_id) >= Number(drawOf(seen).round_id) + 2,
    // The lease lives 10 s and is asked for every 5 s: another process reads within about 15 s.
    30_000,
  )
  watcher.close()
  // Back through nginx (which leaves the dead process out) with the last id it saw.
  const after = openStream(nginx.base, token, seen.id ?? undefined)
  await after.opened
  await after.next((f) => f.id === missedTwo.id)
  expect(after.frames.map((f) => f.event)).not.toContain('snapshot')
  const rounds = after.frames.filter(isDraw).map((f) => Number(drawOf(f).round_id))
  const from = Number(drawOf(seen).round_id)
  // Every round after the one seen, in order, none missing and none twice.
  expect(rounds.slice(0, 2)).toEqual([from + 1, from + 2])
  after.close()
})

test('with Redis killed no request hangs: each limit fails the way docs/deploy.md says', async ({
  deployment,
}) => {
  test.setTimeout(60_000)
  const { procs, redis } = deployment
  await redis.kill()
  const post = (p: Started, path: string, body: object) =>
    fetch(`${p.base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.99' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(5_000),
    })
  for (const p of procs.filter((p) => !killed.has(p.pid))) {
    const started = Date.now()
    // No limit: answered as ever.
    const plain = await fetch(`${p.base}${announcement.path}`, { signal: AbortSignal.timeout(5_000) })
    expect(plain.status).toBe(200)
    // Login fails closed: refused in the envelope, not guessed at without a count.
    const closed = await post(p, login.path, { phone: DEMO.phone, password: DEMO.password })
    expect(closed.status).toBe(503)
    expect(await closed.json()).toMatchObject({ code: CODE.unavailable, data: null })
    // Registering fails open: forwarded uncounted, so the upstream answers (here: the code is wrong).
    const open = await post(p, register.path, {
      phone: '13912345670',
      password: 'a-long-password',
      code: '000000',
    })
    expect(open.status).not.toBe(503)
    expect(((await open.json()) as { code: number }).code).not.toBe(CODE.unavailable)
    expect(Date.now() - started).toBeLessThan(4_000)
  }
})
