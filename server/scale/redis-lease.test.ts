import { eventually, startRedisServer, type TestRedis } from '@server/test-support/redis-server'
import type { Redis } from 'ioredis'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { closeRedis, createRedis, whenRedisReady } from './redis'
import { RedisLease } from './redis-lease'

describe('RedisLease', () => {
  let redis: TestRedis
  const clients: Redis[] = []
  let n = 0
  /** The processes' clock (ms): the lease trusts its last answer for half its time to live by it. */
  let clock = 0
  beforeAll(async () => {
    redis = await startRedisServer()
  })
  afterAll(async () => {
    await redis?.stop()
  })
  afterEach(async () => {
    for (const c of clients.splice(0)) await closeRedis(c)
  })

  /** Two processes asking for the same job, each with its own client. */
  async function twoProcesses(ttlMs: number) {
    const name = `job-${++n}`
    const make = async (owner: string) => {
      const client = createRedis(redis.url, { role: 'lease' })
      clients.push(client)
      await whenRedisReady(client, 5_000)
      const errors: unknown[] = []
      return {
        lease: new RedisLease({
          redis: client,
          name,
          ttlMs,
          owner,
          onError: (e) => errors.push(e),
          now: () => clock,
        }),
        errors,
      }
    }
    return { a: await make('a'), b: await make('b'), key: `hashgame:lease:${name}` }
  }

  it('is held by one process only, renewed by its holder, and free for another once released', async () => {
    const { a, b, key } = await twoProcesses(60_000)
    expect(await a.lease.tryHold()).toBe(true)
    expect(await b.lease.tryHold()).toBe(false)
    expect(await a.lease.tryHold()).toBe(true)
    // Another's release does nothing.
    await b.lease.release()
    expect(await b.lease.tryHold()).toBe(false)
    await a.lease.release()
    expect(await b.lease.tryHold()).toBe(true)
    expect(await a.lease.tryHold()).toBe(false)
    expect(await clients[0]?.get(key)).toBe('b')
  })

  it('renewing pushes the expiry back; a holder that stops renewing loses it after its time to live', async () => {
    const { a, b, key } = await twoProcesses(300)
    expect(await a.lease.tryHold()).toBe(true)
    await clients[0]?.pexpire(key, 5)
    clock += 150
    expect(await a.lease.tryHold()).toBe(true)
    expect(await clients[0]?.pttl(key)).toBeGreaterThan(100)
    // a stops: within the time to live b is refused, after it b takes over.
    expect(await b.lease.tryHold()).toBe(false)
    await eventually(() => b.lease.tryHold(), 5_000)
    clock += 150
    expect(await a.lease.tryHold()).toBe(false)
  })

  it('asks Redis again only once half its time to live has gone since the last answer that it was held', async () => {
    const { a, key } = await twoProcesses(10_000)
    expect(await a.lease.tryHold()).toBe(true)
    // Nobody can take it before its time to live has run out, so a does not ask until 5 s have gone.
    await clients[0]?.set(key, 'someone else')
    clock += 4_999
    expect(await a.lease.tryHold()).toBe(true)
    clock += 1
    expect(await a.lease.tryHold()).toBe(false)
    // Having lost it, a asks every time.
    await clients[0]?.del(key)
    expect(await a.lease.tryHold()).toBe(true)
    await a.lease.release()
    expect(await clients[0]?.exists(key)).toBe(0)
  })

  it('is held by nobody while Redis is down, without waiting', async () => {
    const { a, b } = await twoProcesses(60_000)
    expect(await a.lease.tryHold()).toBe(true)
    await redis.kill()
    await eventually(() => clients.every((c) => c.status !== 'ready'))
    clock += 30_000
    const started = Date.now()
    expect(await a.lease.tryHold()).toBe(false)
    expect(await b.lease.tryHold()).toBe(false)
    await a.lease.release()
    expect(Date.now() - started).toBeLessThan(500)
    expect(a.errors.length).toBe(2)
    await redis.restart()
    await whenRedisReady(clients[1] as Redis, 10_000)
    expect(await b.lease.tryHold()).toBe(true)
  })
})
