import { sessionExpired } from '@server/http/api-error'
import { installErrorHandler } from '@server/http/error-handler'
import { listenOnLoopback } from '@server/test-support/listen'
import { openStream, type TestStream } from '@server/test-support/stream-client'
import { CODE } from '@shared/envelope'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { Metrics } from '../ops/metrics'
import { HeldTimers } from '../test-support/held-timers'
import { EVERYONE, MemoryEventHub, player } from './event-hub'
import { type SessionState, streamRoutes } from './stream-routes'

/** The stream route on its own, with its timers in the test's hands: heartbeats and session checks. */

const apps: FastifyInstance[] = []
const streams: TestStream[] = []
afterEach(async () => {
  for (const s of streams.splice(0)) s.close()
  for (const a of apps.splice(0)) await a.close()
})

async function setUp() {
  const metrics = new Metrics({ defaultMetrics: false })
  const hub = new MemoryEventHub(100, 0)
  const timers = new HeldTimers()
  const sessions = new Map<string, { playerId: number; state: SessionState }>([
    ['t7', { playerId: 7, state: 'live' }],
    ['t8', { playerId: 8, state: 'live' }],
  ])
  let recheck = () => {}
  const app = Fastify()
  installErrorHandler(app)
  await app.register(streamRoutes, {
    hub,
    timers,
    heartbeatMs: 15_000,
    now: () => 42,
    authenticate: (request) => {
      const s = sessions.get(String(request.headers.token))
      if (s === undefined || s.state !== 'live') throw sessionExpired()
      request.player = { id: s.playerId, token: String(request.headers.token) }
    },
    sessionState: (request) => sessions.get(request.player?.token ?? '')?.state ?? 'revoked',
    onRecheck: (fn) => {
      recheck = fn
    },
    metrics,
  })
  app.decorateRequest('player', null)
  apps.push(app)
  const base = await listenOnLoopback(app)
  const open = async (token: string, lastId?: string) => {
    const s = await openStream(base, token, lastId)
    streams.push(s)
    return s
  }
  return { hub, timers, sessions, open, base, metrics, recheck: () => recheck() }
}

describe('the stream route', () => {
  it('refuses a missing or dead session with the envelope', async () => {
    const { base } = await setUp()
    const res = await fetch(`${base}/api/stream`, { headers: { token: 'nobody' } })
    expect((await res.json()).code).toBe(CODE.sessionExpired)
  })

  it('writes a heartbeat comment each time its timer comes round, every heartbeatMs, unless an event went out since', async () => {
    const { hub, timers, open } = await setUp()
    const s = await open('t7')
    await s.next((e) => e.event === 'snapshot')
    expect([...timers.pending.values()].map((t) => t.ms)).toEqual([15_000])
    // The snapshot went out in this interval: its turn writes nothing.
    timers.runAll()
    expect(timers.pending.size).toBe(1)
    timers.runAll()
    timers.runAll()
    await expect.poll(() => s.comments).toEqual(['heartbeat', 'heartbeat'])
    const announced = hub.publish(
      { type: 'announcement', data: { id: 1, title: 'x', content: 'y', pinned: false, published_at: 1 } },
      EVERYONE,
    )
    await s.next((e) => e.id === announced.id)
    timers.runAll()
    timers.runAll()
    await expect.poll(() => s.comments).toEqual(['heartbeat', 'heartbeat', 'heartbeat'])
    expect(s.events.map((e) => e.event)).toEqual(['snapshot', 'announcement'])
    expect(timers.pending.size).toBe(1)
  })

  it('sends events for everybody and for its player only, in order, with their ids', async () => {
    const { hub, open } = await setUp()
    const s = await open('t7')
    await s.next((e) => e.event === 'snapshot')
    hub.publish({ type: 'session_end', data: { reason: 'revoked' } }, player(8))
    const b = hub.publish(
      { type: 'announcement', data: { id: 1, title: 'x', content: 'y', pinned: false, published_at: 1 } },
      EVERYONE,
    )
    const got = await s.next((e) => e.event === 'announcement')
    expect(got.id).toBe(b.id)
    expect(s.events.map((e) => e.event)).toEqual(['snapshot', 'announcement'])
  })

  it('finds an expired session at the heartbeat and ends the stream with session_end', async () => {
    const { timers, sessions, open } = await setUp()
    const s = await open('t7')
    await s.next((e) => e.event === 'snapshot')
    const me = sessions.get('t7')
    if (me) me.state = 'expired'
    timers.runAll()
    expect((await s.next((e) => e.event === 'session_end')).data).toEqual({ reason: 'expired' })
    await s.ended
    expect(timers.pending.size).toBe(0)
  })

  it('checks again when asked (the clock moved) and on a session_end of its player', async () => {
    const { hub, sessions, open, recheck } = await setUp()
    const a = await open('t7')
    const b = await open('t8')
    await a.next((e) => e.event === 'snapshot')
    await b.next((e) => e.event === 'snapshot')
    const seven = sessions.get('t7')
    if (seven) seven.state = 'revoked'
    recheck()
    expect((await a.next((e) => e.event === 'session_end')).data).toEqual({ reason: 'revoked' })
    const eight = sessions.get('t8')
    if (eight) eight.state = 'revoked'
    hub.publish({ type: 'session_end', data: { reason: 'revoked' } }, player(8))
    await b.ended
    expect(b.events.at(-1)?.event).toBe('session_end')
  })

  it('ends every open stream when the server closes, so a drain is not held open', async () => {
    const { open } = await setUp()
    const s = await open('t7')
    await s.next((e) => e.event === 'snapshot')
    const app = apps.pop()
    await app?.close()
    await s.ended
  })
})

describe('the stream metrics', () => {
  it('count streams open, how each began, and the events sent by type', async () => {
    const { hub, open, metrics } = await setUp()
    const a = await open('t7')
    const first = await a.next((e) => e.event === 'snapshot')
    hub.publish(
      { type: 'announcement', data: { id: 1, title: 'x', content: 'y', pinned: false, published_at: 1 } },
      EVERYONE,
    )
    await a.next((e) => e.event === 'announcement')
    const b = await open('t8', first.id ?? undefined)
    await b.next((e) => e.event === 'announcement')
    await open('t8', 'from-another-run')
    const text = await metrics.text()
    expect(text).toContain('stream_connections 3')
    expect(text).toContain('stream_starts_total{start="snapshot_new"} 1')
    expect(text).toContain('stream_starts_total{start="replay"} 1')
    expect(text).toContain('stream_starts_total{start="snapshot_gap"} 1')
    expect(text).toContain('stream_events_sent_total{type="announcement"} 2')
    expect(text).toContain('stream_events_sent_total{type="snapshot"} 2')
  })
})
