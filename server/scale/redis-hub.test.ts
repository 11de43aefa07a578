import { sessionExpired } from '@server/http/api-error'
import { installErrorHandler } from '@server/http/error-handler'
import { listenOnLoopback } from '@server/test-support/listen'
import { eventually, startRedisServer, type TestRedis } from '@server/test-support/redis-server'
import { openStream, type TestStream } from '@server/test-support/stream-client'
import Fastify, { type FastifyInstance } from 'fastify'
import type { Redis } from 'ioredis'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { EVERYONE, type HubEvent, player } from '../realtime/event-hub'
import { streamRoutes } from '../realtime/stream-routes'
import { closeRedis, createRedis, whenRedisReady } from './redis'
import { compareIds, RedisEventHub } from './redis-hub'

const announcement = (id: number) =>
  ({
    type: 'announcement',
    data: { id, title: `t${id}`, content: 'c', pinned: false, published_at: 1 },
  }) as const

describe('RedisEventHub', () => {
  let redis: TestRedis
  let prefix = ''
  let n = 0
  const clients: Redis[] = []
  const hubs: RedisEventHub[] = []
  const apps: FastifyInstance[] = []
  const streams: TestStream[] = []

  beforeAll(async () => {
    prefix = `test${process.pid}`
    redis = await startRedisServer()
  })
  afterAll(async () => {
    await redis?.stop()
  })
  afterEach(async () => {
    for (const s of streams.splice(0)) s.close()
    for (const a of apps.splice(0)) await a.close()
    for (const h of hubs.splice(0)) await h.close()
    for (const c of clients.splice(0)) await closeRedis(c)
    // A fresh log and channel for each test.
    n++
    prefix = `test${process.pid}-${n}`
  })

  /** One "process": its own two clients and hub, all on the test's Redis and key prefix. */
  async function makeHub(replaySize = 100) {
    const commands = createRedis(redis.url, { role: 'commands' })
    const subscriber = createRedis(redis.url, { role: 'events' })
    clients.push(commands, subscriber)
    const failures: unknown[] = []
    const hub = new RedisEventHub({
      commands,
      subscriber,
      replaySize,
      prefix,
      now: () => 42,
      onPublishFailed: (err) => failures.push(err),
      retryMs: 20,
    })
    hubs.push(hub)
    const seen: HubEvent[] = []
    hub.subscribe((e) => seen.push(e))
    await whenRedisReady(commands, 5_000)
    await eventually(() => hub.ready)
    return { hub, seen, failures, commands, subscriber }
  }

  it('hands an event published by one process to the listeners of both, with one id', async () => {
    const a = await makeHub()
    const b = await makeHub()
    const start = a.hub.lastId()
    expect(start).toBe('0-0')
    a.hub.publish(announcement(1), EVERYONE)
    b.hub.publish(announcement(2), player(7))
    await eventually(() => a.seen.length === 2 && b.seen.length === 2)
    expect(b.seen).toEqual(a.seen)
    expect(a.seen.map((e) => e.type)).toEqual(['announcement', 'announcement'])
    expect(a.seen[1]?.audience).toEqual(player(7))
    const [first, second] = a.seen.map((e) => e.id)
    expect(compareIds(first ?? '', second ?? '')).toBeLessThan(0)
    expect(a.hub.lastId()).toBe(second)
    expect(b.hub.since(start)?.map((e) => e.id)).toEqual([first, second])
    expect(b.hub.since(first ?? '')?.map((e) => e.id)).toEqual([second])
  })

  it('sends the events published in one turn as one message: every process tells them in one go, each with its id in the log', async () => {
    const a = await makeHub()
    const b = await makeHub()
    const messages: string[] = []
    b.subscriber.on('message', (_channel: string, message: string) => messages.push(message))
    /** Events told to b's listeners, by turn of b's event loop. */
    const turns: number[][] = []
    let turn: number[] | null = null
    b.hub.subscribe((e) => {
      if (!turn) {
        turn = []
        turns.push(turn)
        queueMicrotask(() => {
          turn = null
        })
      }
      turn.push(e.type === 'announcement' ? e.data.id : -1)
    })
    for (let i = 1; i <= 3; i++) a.hub.publish(announcement(i), EVERYONE)
    await eventually(() => b.seen.length === 3)
    expect(messages.length).toBe(1)
    expect(turns).toEqual([[1, 2, 3]])
    expect(b.seen).toEqual(a.seen)
    // In the log one entry each, chained: a process reading it after a gap gets them all.
    const ids = a.seen.map((e) => e.id)
    const c = await makeHub()
    expect(c.hub.since('0-0')?.map((e) => e.id)).toEqual(ids)
    expect(new Set(ids).size).toBe(3)
  })

  it('reads the log at start: a process started later replays what came before it', async () => {
    const a = await makeHub()
    for (let i = 1; i <= 3; i++) a.hub.publish(announcement(i), EVERYONE)
    await eventually(() => a.seen.length === 3)
    const late = await makeHub()
    expect(late.seen).toEqual([])
    expect(late.hub.lastId()).toBe(a.hub.lastId())
    expect(late.hub.since(a.seen[0]?.id ?? '')).toEqual(a.seen.slice(1))
  })

  it('answers null (a snapshot) for an id it no longer keeps, another deployment’s, or garbage', async () => {
    const a = await makeHub(3)
    for (let i = 1; i <= 6; i++) a.hub.publish(announcement(i), EVERYONE)
    await eventually(() => a.seen.length === 6)
    const ids = a.seen.map((e) => e.id)
    expect(a.hub.since(ids[2] ?? '')?.map((e) => e.id)).toEqual(ids.slice(3))
    expect(a.hub.since(ids[1] ?? '')).toBeNull()
    expect(a.hub.since('1-0')).toBeNull()
    expect(a.hub.since('99999999999999-0')).toBeNull()
    expect(a.hub.since('lx1-5')).toBeNull()
    // A process started now keeps only what the log kept (about 3, trimmed approximately).
    const late = await makeHub(3)
    expect(late.hub.since(ids[0] ?? '')).toBeNull()
    expect(late.hub.since(ids[4] ?? '')?.map((e) => e.id)).toEqual(ids.slice(5))
  })

  it('finds a message it missed from the broken chain and reads it from the log, in order', async () => {
    const a = await makeHub()
    const b = await makeHub()
    const channel = `${prefix}:live`
    // b stops hearing the channel for a while: two events go by it.
    await b.subscriber.unsubscribe(channel)
    a.hub.publish(announcement(1), EVERYONE)
    a.hub.publish(announcement(2), EVERYONE)
    await eventually(() => a.seen.length === 2)
    await b.subscriber.subscribe(channel)
    expect(b.seen).toEqual([])
    a.hub.publish(announcement(3), EVERYONE)
    await eventually(() => b.seen.length === 3)
    expect(b.seen).toEqual(a.seen)
  })

  it('catches up after its subscriber reconnects, without a new event to show the gap', async () => {
    const a = await makeHub()
    const b = await makeHub()
    const channel = `${prefix}:live`
    await b.subscriber.unsubscribe(channel)
    const id = await b.subscriber.client('ID')
    a.hub.publish(announcement(1), EVERYONE)
    await eventually(() => a.seen.length === 1)
    // The server drops b's subscriber connection; it reconnects, subscribes and reads the log.
    await a.commands.client('KILL', 'ID', String(id))
    await eventually(() => b.seen.length === 1)
    expect(b.seen).toEqual(a.seen)
  })

  it('tries a failed read of the log again by itself, though the connection never dropped', async () => {
    const a = await makeHub()
    const b = await makeHub()
    await b.subscriber.unsubscribe(`${prefix}:live`)
    const id = await b.subscriber.client('ID')
    a.hub.publish(announcement(1), EVERYONE)
    await eventually(() => a.seen.length === 1)
    // b's next read of the log fails once (a timeout, say), its connection staying up.
    const xrange = b.commands.xrange.bind(b.commands)
    let failures = 0
    b.commands.xrange = ((...args: Parameters<typeof xrange>) => {
      if (failures++ === 0) return Promise.reject(new Error('Command timed out'))
      return xrange(...args)
    }) as typeof xrange
    await a.commands.client('KILL', 'ID', String(id))
    await eventually(() => b.seen.length === 1)
    expect(failures).toBe(2)
    expect(b.hub.ready).toBe(true)
  })

  it('keeps serving while Redis is down: a publish fails, is counted, and a gap snapshot follows', async () => {
    const a = await makeHub()
    const b = await makeHub()
    a.hub.publish(announcement(1), EVERYONE)
    await eventually(() => b.seen.length === 1)
    const before = b.hub.lastId()
    await redis.kill()
    await eventually(() => a.commands.status !== 'ready')
    expect(() => a.hub.publish(announcement(2), EVERYONE)).not.toThrow()
    await eventually(() => a.failures.length === 1)
    expect(a.hub.ready).toBe(false)
    // Redis comes back (empty: it kept nothing): everybody is told to read their state again.
    await redis.restart()
    await eventually(() => b.seen.some((e) => e.type === 'snapshot'), 10_000)
    const gap = b.seen.find((e) => e.type === 'snapshot')
    expect(gap?.data).toEqual({ reason: 'gap', server_time: 42 })
    expect(gap?.audience).toEqual(EVERYONE)
    // A client that saw only the first event gets no silent replay that skips the lost one.
    const replay = b.hub.since(before)
    expect(replay === null || replay.some((e) => e.type === 'snapshot')).toBe(true)
    await eventually(() => a.hub.ready && b.hub.ready, 10_000)
    a.hub.publish(announcement(3), EVERYONE)
    await eventually(() => b.seen.at(-1)?.type === 'announcement' && a.seen.at(-1)?.type === 'announcement')
    expect(b.hub.lastId()).toBe(a.hub.lastId())
  })

  it('lets a client reconnect to another process with Last-Event-ID and replays what it missed', async () => {
    const a = await makeHub()
    const b = await makeHub()
    const serve = async (hub: RedisEventHub) => {
      const app = Fastify()
      installErrorHandler(app)
      app.decorateRequest('player', null)
      await app.register(streamRoutes, {
        hub,
        heartbeatMs: 60_000,
        now: () => 42,
        authenticate: (request) => {
          if (request.headers.token !== 't7') throw sessionExpired()
          request.player = { id: 7, token: 't7' }
        },
        sessionState: () => 'live',
      })
      apps.push(app)
      return listenOnLoopback(app)
    }
    const [baseA, baseB] = await Promise.all([serve(a.hub), serve(b.hub)])
    const first = await openStream(baseA, 't7')
    streams.push(first)
    await first.next((e) => e.event === 'snapshot')
    a.hub.publish(announcement(1), EVERYONE)
    const one = await first.next((e) => e.event === 'announcement')
    first.close()
    a.hub.publish(announcement(2), EVERYONE)
    a.hub.publish({ type: 'session_end', data: { reason: 'revoked' } }, player(8))
    a.hub.publish(announcement(3), player(7))
    await eventually(() => b.seen.length === 4)
    const again = await openStream(baseB, 't7', one.id ?? undefined)
    streams.push(again)
    await again.next((e) => e.event === 'announcement' && e.data.id === 3)
    expect(again.events.map((e) => [e.event, e.data.id])).toEqual([
      ['announcement', 2],
      ['announcement', 3],
    ])
    expect(again.events.map((e) => e.id)).toEqual([b.seen[1]?.id, b.seen[3]?.id])
    // Then live, from whichever process published it.
    a.hub.publish(announcement(4), EVERYONE)
    const live = await again.next((e) => e.data.id === 4)
    // b, which serves the stream, told it under the id the publishing process a knows it by (a may
    // hear it back from Redis a moment after b).
    expect(live.id).toBe(b.hub.lastId())
    await eventually(() => a.hub.lastId() === live.id)
  })
})
