import { describe, expect, it } from 'vitest'
import { EVERYONE, type HubEvent, isFor, MemoryEventHub, player } from './event-hub'

const snapshot = { type: 'snapshot', data: { reason: 'new', server_time: 1 } } as const
const ended = { type: 'session_end', data: { reason: 'revoked' } } as const

describe('MemoryEventHub', () => {
  it('numbers events in order and hands each to every listener at once', () => {
    const hub = new MemoryEventHub(10, 36 ** 3)
    const seen: HubEvent[] = []
    const stop = hub.subscribe((e) => seen.push(e))
    expect(hub.lastId()).toBe('1000-0')
    const a = hub.publish(snapshot, EVERYONE)
    const b = hub.publish(ended, player(7))
    expect([a.id, b.id]).toEqual(['1000-1', '1000-2'])
    expect(seen.map((e) => e.id)).toEqual(['1000-1', '1000-2'])
    stop()
    hub.publish(snapshot, EVERYONE)
    expect(seen).toHaveLength(2)
    expect(hub.lastId()).toBe('1000-3')
  })

  it('replays what came after an id while it is kept, and says null once it is not', () => {
    const hub = new MemoryEventHub(3, 0)
    for (let i = 0; i < 5; i++) hub.publish(snapshot, EVERYONE)
    // Kept: 3, 4, 5.
    expect(hub.since('0-5')).toEqual([])
    expect(hub.since('0-3')?.map((e) => e.id)).toEqual(['0-4', '0-5'])
    expect(hub.since('0-2')?.map((e) => e.id)).toEqual(['0-3', '0-4', '0-5'])
    expect(hub.since('0-1')).toBeNull()
    // Another run's ids, ids from the future and garbage are gaps too.
    expect(hub.since('1-5')).toBeNull()
    expect(hub.since('0-6')).toBeNull()
    expect(hub.since('nonsense')).toBeNull()
    expect(hub.since('0-x')).toBeNull()
  })

  it('starts replay from nothing: before any event, the starting id has nothing missed', () => {
    const hub = new MemoryEventHub(2, 0)
    const start = hub.lastId()
    hub.publish(snapshot, EVERYONE)
    expect(hub.since(start)?.map((e) => e.id)).toEqual(['0-1'])
  })

  it('keeps a failing listener from stopping the others', () => {
    const errors: unknown[] = []
    const hub = new MemoryEventHub(2, 0, (err) => errors.push(err))
    const seen: string[] = []
    hub.subscribe(() => {
      throw new Error('boom')
    })
    hub.subscribe((e) => seen.push(e.id))
    hub.publish(snapshot, EVERYONE)
    expect(seen).toEqual(['0-1'])
    expect(errors).toHaveLength(1)
  })

  it('addresses events to everybody or to one player', () => {
    const hub = new MemoryEventHub(2, 0)
    const all = hub.publish(snapshot, EVERYONE)
    const mine = hub.publish(ended, player(7))
    expect(isFor(all, 8)).toBe(true)
    expect(isFor(mine, 7)).toBe(true)
    expect(isFor(mine, 8)).toBe(false)
  })
})
