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
  if (!reader) throw new Error('proxy mode built no upstream reader')
  const streams: TestStream[] = []
  let next = 1
  return {
    proxyUrl,
    proxy,
    upstream,
    model,
    reader,
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
