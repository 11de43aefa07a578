import { sessionExpired } from '@server/http/api-error'
import { installErrorHandler } from '@server/http/error-handler'
import { listenOnLoopback } from '@server/test-support/listen'
import { openStream, type TestStream } from '@server/test-support/stream-client'
import type { FaultRuleInput } from '@shared/emu-control'
import { SERVER_MSG } from '@shared/messages'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { EmuClock } from '../emulator/clock'
import { collectRouteMethods } from '../http/route-methods'
import { faultLayerPlugin } from '../plugins/fault-layer-plugin'
import { requestTarget } from '../plugins/request-target'
import { EVERYONE, MemoryEventHub } from '../realtime/event-hub'
import { streamRoutes } from '../realtime/stream-routes'
import { HeldTimers } from '../test-support/held-timers'
import { RuleInputError } from './rule-store'
import { DROP_GRACE_MS, STREAM_EVENTS_KEPT } from './stream-faults'

/**
 * The stream faults (docs/testing.md#stream-faults) on the stream route with the fault layer in
 * front, as both modes serve it: rules added to the layer, the stream read over a real socket, its
 * waits (heartbeats, delays) on timers in the test's hands.
 */

/** Held timers that tell the heartbeat from the other waits. */
class HandTimers extends HeldTimers {
  /** The waits asked for other than the heartbeat's, oldest first. */
  waits(): number[] {
    return [...this.pending.values()].filter((t) => t.ms !== HEARTBEAT_MS).map((t) => t.ms)
  }
  /** Runs the `n`th pending wait other than the heartbeat's (0: the oldest). */
  fire(n = 0): void {
    const found = [...this.pending].filter(([, t]) => t.ms !== HEARTBEAT_MS)[n]
    if (!found) throw new Error(`no wait #${n}`)
    this.pending.delete(found[0])
    found[1].fn()
  }
}

const HEARTBEAT_MS = 15_000
const apps: FastifyInstance[] = []
const streams: TestStream[] = []
afterEach(async () => {
  for (const s of streams.splice(0)) s.close()
  for (const a of apps.splice(0)) await a.close()
})

const announcement = (id: number) =>
  ({
    type: 'announcement',
    data: { id, title: `t${id}`, content: 'x', pinned: false, published_at: 1 },
  }) as const

async function setUp() {
  const hub = new MemoryEventHub(100, 0)
  const timers = new HandTimers()
  const app = Fastify()
  installErrorHandler(app)
  await app.register(requestTarget, { methodsOf: collectRouteMethods(app) })
  await app.register(faultLayerPlugin, { clock: new EmuClock() })
  app.faults.enableJournal(50)
  app.decorateRequest('player', null)
  await app.register(streamRoutes, {
    hub,
    timers,
    heartbeatMs: HEARTBEAT_MS,
    now: () => 42,
    authenticate: (request) => {
      if (request.headers.token !== 't7') throw sessionExpired()
      request.player = { id: 7, token: 't7' }
    },
    sessionState: () => 'live',
    faults: app.faults.streamFaults,
  })
  apps.push(app)
  const base = await listenOnLoopback(app)
  const open = async (lastId?: string) => {
    const s = await openStream(base, 't7', lastId)
    streams.push(s)
    return s
  }
  const addRule = (rule: FaultRuleInput) => app.faults.rules.add(rule, 0)
  /** What the journal says of the streams, oldest first. */
  const journal = () => app.faults.journal?.query({ path: '/api/stream' }) ?? []
  const publish = (n: number) => hub.publish(announcement(n), EVERYONE)
  /** Lets a drop's cut come (it waits DROP_GRACE_MS after the last event). */
  const cut = async () => {
    await expect.poll(() => timers.waits()).toContain(DROP_GRACE_MS)
    timers.fire(timers.waits().indexOf(DROP_GRACE_MS))
  }
  return { hub, timers, app, base, open, addRule, journal, publish, cut }
}

const titles = (s: TestStream) =>
  s.events.map((e) => (e.event === 'announcement' ? e.data.title : e.event)).join(' ')

describe('stream faults', () => {
  it('streamDrop: the connection breaks off after N events, as a network failure; times counts streams', async () => {
    const { open, addRule, publish, journal, hub, cut } = await setUp()
    addRule({ match: { path: '/api/stream' }, action: { type: 'streamDrop', afterEvents: 3 }, times: 1 })
    const s = await open()
    await s.next((e) => e.event === 'snapshot')
    publish(1)
    publish(2)
    await s.next((e) => e.data.title === 't2')
    // The cut comes a moment later; an event published meanwhile is not sent.
    publish(3)
    await cut()
    await s.ended
    expect(s.failed).toBe(true)
    expect(titles(s)).toBe('snapshot t1 t2')
    expect(hub.listenerCount).toBe(0)
    // The next opening (the reconnection) is left alone, and gets what it missed.
    const again = await open(s.events.at(-1)?.id ?? undefined)
    await again.next((e) => e.data.title === 't3')
    const entries = journal()
    expect(entries[0]?.outcome).toBe('dropped')
    expect(entries[0]?.fault?.action).toBe('streamDrop')
    expect(entries[0]?.stream).toMatchObject({ events: 3, end: 'dropped' })
    expect(entries[0]?.stream?.recent.at(-1)).toMatchObject({ sent: false, fault: 'streamDrop' })
    expect(entries[1]?.fault).toBeNull()
  })

  it('streamDrop after 0 events: cut off as it opens, before the snapshot', async () => {
    const { open, addRule, timers, cut } = await setUp()
    addRule({ match: { path: '/api/stream' }, action: { type: 'streamDrop', afterEvents: 0 } })
    // The answer's head leaves with the cut.
    const opening = open()
    await cut()
    const s = await opening
    await s.ended
    expect(s.failed).toBe(true)
    expect(s.events).toEqual([])
    expect(timers.pending.size).toBe(0)
  })

  it('streamDelay: each event as late as asked, in the order published', async () => {
    const { open, addRule, publish, timers, journal } = await setUp()
    addRule({
      match: { path: '/api/stream' },
      action: { type: 'streamDelay', minMs: 100, maxMs: 900, events: ['announcement'] },
      seed: 3,
    })
    const s = await open()
    // The snapshot is not among the types delayed: at once.
    await s.next((e) => e.event === 'snapshot')
    publish(1)
    publish(2)
    const waits = timers.waits()
    expect(waits).toHaveLength(2)
    for (const ms of waits) expect(ms).toBeGreaterThanOrEqual(100)
    for (const ms of waits) expect(ms).toBeLessThanOrEqual(900)
    // The second's time comes first: it still waits for the first.
    timers.fire(1)
    await new Promise((r) => setTimeout(r, 50))
    expect(titles(s)).toBe('snapshot')
    timers.fire(0)
    await s.next((e) => e.data.title === 't2')
    expect(titles(s)).toBe('snapshot t1 t2')
    const recent = journal()[0]?.stream?.recent ?? []
    expect(recent.map((e) => e.fault)).toEqual([
      null,
      `streamDelay ${waits[0]}ms`,
      `streamDelay ${waits[1]}ms`,
    ])
  })

  it('streamDelay with ms: every event, the snapshot too', async () => {
    const { open, addRule, timers } = await setUp()
    addRule({ match: { path: '/api/stream' }, action: { type: 'streamDelay', ms: 2500 } })
    // The answer's head leaves with its first event.
    const opening = open()
    await expect.poll(() => timers.waits()).toEqual([2500])
    timers.fire(0)
    const s = await opening
    expect((await s.next(() => true)).event).toBe('snapshot')
  })

  it('streamDuplicate: an event sent twice with the same id, only the types named', async () => {
    const { open, addRule, publish, journal } = await setUp()
    addRule({
      match: { path: '/api/stream' },
      action: { type: 'streamDuplicate', events: ['announcement'] },
    })
    const s = await open()
    const sent = publish(1)
    publish(2)
    await s.next((e) => e.data.title === 't2')
    await expect.poll(() => titles(s)).toBe('snapshot t1 t1 t2 t2')
    expect(s.events.filter((e) => e.id === sent.id)).toHaveLength(2)
    expect(journal()[0]?.stream).toMatchObject({ events: 5, touched: 2 })
  })

  it('streamReorder: an event held back and sent after the next one', async () => {
    const { open, addRule, publish, journal } = await setUp()
    addRule({ match: { path: '/api/stream' }, action: { type: 'streamReorder', events: ['announcement'] } })
    const s = await open()
    await s.next((e) => e.event === 'snapshot')
    publish(1)
    publish(2)
    publish(3)
    publish(4)
    await expect.poll(() => titles(s)).toBe('snapshot t2 t1 t4 t3')
    const faults = (journal()[0]?.stream?.recent ?? []).map((e) => `${e.type}:${e.sent}:${e.fault}`)
    expect(faults.slice(1, 4)).toEqual([
      'announcement:false:streamReorder: held',
      'announcement:true:null',
      'announcement:true:streamReorder',
    ])
  })

  it('streamSkip: M events never sent; the next reconnection gets a snapshot (gap), not the replay', async () => {
    const { open, addRule, publish, journal, hub } = await setUp()
    addRule({
      match: { path: '/api/stream' },
      action: { type: 'streamSkip', count: 2, afterEvents: 2 },
      times: 1,
    })
    const s = await open()
    publish(1)
    publish(2)
    publish(3)
    const last = publish(4)
    await s.next((e) => e.data.title === 't4')
    expect(titles(s)).toBe('snapshot t1 t4')
    s.close()
    const again = await open(last.id)
    const first = await again.next(() => true)
    expect(first).toMatchObject({ event: 'snapshot', data: { reason: 'gap' } })
    // Once: the reconnection after that replays as usual.
    publish(5)
    await again.next((e) => e.data.title === 't5')
    again.close()
    await expect.poll(() => hub.listenerCount).toBe(0)
    const third = open(again.events.at(-1)?.id ?? undefined)
    await expect.poll(() => hub.listenerCount).toBe(1)
    publish(6)
    expect((await (await third).next(() => true)).data.title).toBe('t6')
    const recent = journal()[0]?.stream?.recent ?? []
    expect(recent.filter((e) => !e.sent).map((e) => e.fault)).toEqual(['streamSkip', 'streamSkip'])
  })

  it('streamRefuse: reconnections answered 503 N times, first openings neither refused nor counted', async () => {
    const { open, addRule, base, publish } = await setUp()
    const rule = addRule({ match: { path: '/api/stream' }, action: { type: 'streamRefuse' }, times: 2 })
    const first = await open()
    const seen = await first.next((e) => e.event === 'snapshot')
    expect(first.status).toBe(200)
    first.close()
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${base}/api/stream`, {
        headers: { token: 't7', 'last-event-id': seen.id ?? '' },
      })
      expect(res.status).toBe(503)
      expect(await res.json()).toEqual({ code: 503, msg: SERVER_MSG.internal, data: null })
    }
    expect(rule).toMatchObject({ matched: 2, fired: 2, spent: true })
    publish(1)
    const back = await open(seen.id ?? undefined)
    expect((await back.next(() => true)).data.title).toBe('t1')
  })

  it('streamSessionEnd: a session_end on the stream, which ends; the session itself lives on', async () => {
    const { open, addRule, publish, journal } = await setUp()
    addRule({
      match: { path: '/api/stream' },
      action: { type: 'streamSessionEnd', afterEvents: 2, reason: 'expired' },
      times: 1,
    })
    const s = await open()
    publish(1)
    await s.ended
    expect(s.failed).toBe(false)
    expect(titles(s)).toBe('snapshot t1 session_end')
    expect(s.events.at(-1)?.data).toEqual({ reason: 'expired' })
    const next = await open()
    await next.next((e) => e.event === 'snapshot')
    expect(journal()[0]?.stream).toMatchObject({ end: 'session_end', touched: 1 })
  })

  it('the journal keeps the newest events of each stream and counts them all', async () => {
    const { open, publish, journal } = await setUp()
    const s = await open()
    for (let i = 1; i <= 40; i++) publish(i)
    await s.next((e) => e.data.title === 't40')
    const stream = journal()[0]?.stream
    expect(stream?.events).toBe(41)
    expect(stream?.touched).toBe(0)
    expect(stream?.recent).toHaveLength(STREAM_EVENTS_KEPT)
    expect(stream?.recent.at(-1)).toMatchObject({ type: 'announcement', sent: true, fault: null })
  })

  it('a stream action must match the stream; on a wider path it sees the stream only', async () => {
    const { app, open, addRule, cut } = await setUp()
    expect(() =>
      addRule({ match: { path: '/api/api/getBalance' }, action: { type: 'streamDrop', afterEvents: 1 } }),
    ).toThrow(RuleInputError)
    const rule = addRule({ match: { path: '/api/**' }, action: { type: 'streamDrop', afterEvents: 1 } })
    await app.inject({ method: 'GET', url: '/api/other' })
    expect(rule.matched).toBe(0)
    const s = await open()
    await cut()
    await s.ended
    expect(titles(s)).toBe('snapshot')
    expect(rule.fired).toBe(1)
  })
})
