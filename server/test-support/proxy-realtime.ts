import type { FastifyInstance } from 'fastify'
import { buildApp } from '../app'
import { testConfig } from '../config'
import type { UpstreamReader } from '../realtime/upstream-reader'
import {
  FAKE_TOKEN_PREFIX,
  FakeRoundUpstream,
  type ServedUpstream,
  serveRoundUpstream,
  type VirtualTime,
} from './fake-round-upstream'
import { listenOnLoopback } from './listen'
import { openStream, type TestStream } from './stream-client'

/**
 * A proxy-mode server in front of a fake upstream (fake-round-upstream.ts), for counting what the
 * push channel costs the upstream (docs/realtime.md#proxy-mode): open N streams, let draws happen,
 * read the upstream's requests by path. With `time` (a VirtualTime) the upstream's rounds and the
 * reader's timers follow it and nothing waits for real time (tests); without, both run on the real
 * clock (benchmarks: the block game draws every 3 s).
 */
export interface ProxyOverFake {
  /** The proxy's base URL (streams and players' calls go here). */
  readonly proxyUrl: string
  readonly proxy: FastifyInstance
  readonly upstream: ServedUpstream
  readonly model: FakeRoundUpstream
  readonly reader: UpstreamReader
  /** Opens `n` streams as `n` different players (each a live session at the fake). */
  openStreams(n: number): Promise<TestStream[]>
  /** Requests the upstream has had, by path, since start. */
  upstreamRequests(): Record<string, number>
  close(): Promise<void>
}

export async function startProxyOverFake(
  opts: { time?: VirtualTime; env?: Record<string, string> } = {},
): Promise<ProxyOverFake> {
  const clock = opts.time ?? {
    get now() {
      return Date.now()
    },
  }
  const model = new FakeRoundUpstream(clock)
  const upstream = await serveRoundUpstream(model)
  let reader: UpstreamReader | null = null
  const proxy = await buildApp(
    testConfig({ MODE: 'proxy', UPSTREAM_URL: upstream.url, ...opts.env }),
    undefined,
    undefined,
    {
      ...(opts.time ? { readerTimers: opts.time.timers, readerNow: () => clock.now } : {}),
      onReader: (r) => {
        reader = r
      },
    },
  )
  const proxyUrl = await listenOnLoopback(proxy)
  const built = reader as UpstreamReader | null
  if (!built) throw new Error('proxy mode built no upstream reader')
  // Each timer the test fires may start a read over a real socket: the clock waits for it.
  opts.time?.waitAlsoFor(() => built.whenIdle())
  const streams: TestStream[] = []
  let next = 1
  return {
    proxyUrl,
    proxy,
    upstream,
    model,
    reader: built,
    async openStreams(n) {
      const opened = await Promise.all(
        Array.from({ length: n }, () => {
          const id = next++
          return openStream(proxyUrl, `${FAKE_TOKEN_PREFIX}${id}`, undefined, `?player_id=${id}`)
        }),
      )
      streams.push(...opened)
      return opened
    },
    upstreamRequests: () => Object.fromEntries(upstream.requests),
    async close() {
      for (const s of streams.splice(0)) s.close()
      await proxy.close()
      await upstream.close()
    },
  }
}

/** What `upstreamCallsPerDraw` measured. */
export interface CallsPerDraw {
  readonly streams: number
  /** Draws published to the streams in the window (every game). */
  readonly draws: number
  /** The upstream's requests in the window, by path. */
  readonly requests: Record<string, number>
  /** Reads of rounds and results per draw: about 1, whatever the number of streams. */
  readonly perDraw: number
  /** Session checks (user info): one per stream opened, none in the window. */
  readonly sessionChecks: number
}

/**
 * Opens `streams` streams on a proxy over the fake upstream, lets `ms` pass (the block game draws
 * every 3 s; a virtual clock when `time` is given, else real time) and counts what the upstream was
 * asked in that window, per draw. For `npm run bench:realtime` and tests.
 */
export async function upstreamCallsPerDraw(opts: {
  streams: number
  ms?: number
  time?: VirtualTime
  env?: Record<string, string>
}): Promise<CallsPerDraw> {
  const set = await startProxyOverFake({
    ...(opts.time ? { time: opts.time } : {}),
    ...(opts.env ? { env: opts.env } : {}),
  })
  try {
    const opened = await set.openStreams(opts.streams)
    await Promise.all(opened.map((s) => s.next((e) => e.event === 'snapshot', 30_000)))
    const sessionChecks = set.upstreamRequests()['/api/users/info'] ?? 0
    // The reader's first read of every game happens before the window.
    if (opts.time) await opts.time.advance(0)
    else
      while (set.reader.calls.currentRound < set.reader.games.length)
        await new Promise((resolve) => setTimeout(resolve, 50))
    await set.reader.whenIdle()
    const drawsBefore = set.reader.published.draw
    const before = set.upstreamRequests()
    const ms = opts.ms ?? 30_000
    if (opts.time) await opts.time.advance(ms)
    else await new Promise((resolve) => setTimeout(resolve, ms))
    await set.reader.whenIdle()
    const after = set.upstreamRequests()
    const requests: Record<string, number> = {}
    for (const [path, n] of Object.entries(after)) {
      const d = n - (before[path] ?? 0)
      if (d > 0) requests[path] = d
    }
    const draws = set.reader.published.draw - drawsBefore
    const reads = (requests['/api/games/round'] ?? 0) + (requests['/api/games/results'] ?? 0)
    return {
      streams: opts.streams,
      draws,
      requests,
      perDraw: draws > 0 ? reads / draws : Number.NaN,
      sessionChecks,
    }
  } finally {
    await set.close()
  }
}
