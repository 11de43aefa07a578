import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventually, startRedisServer, type TestRedis } from '../test-support/redis-server'
import { closeRedis, createRedis, isRedisUp, whenRedisReady } from './redis'

describe('createRedis', () => {
  let redis: TestRedis
  beforeAll(async () => {
    redis = await startRedisServer()
  })
  afterAll(async () => {
    await redis?.stop()
  })

  it('connects, names its connection after its role, and fails at once while Redis is gone', async () => {
    const lines: string[] = []
    const log = {
      warn: (_: object, msg: string) => lines.push(msg),
      info: (_: object, msg: string) => lines.push(msg),
    }
    const client = createRedis(redis.url, { role: 'test', log })
    try {
      expect(await whenRedisReady(client, 5_000)).toBe(true)
      expect(isRedisUp(client)).toBe(true)
      expect(await client.client('GETNAME')).toBe('hashgame-test')

      await redis.kill()
      const started = Date.now()
      await expect(client.get('x')).rejects.toThrow()
      // No offline queue: the command is refused, not kept until Redis comes back.
      expect(Date.now() - started).toBeLessThan(1_000)
      await eventually(() => !isRedisUp(client))
      const again = Date.now()
      await expect(client.get('x')).rejects.toThrow(/enableOfflineQueue/)
      expect(Date.now() - again).toBeLessThan(100)

      await redis.restart()
      expect(await whenRedisReady(client, 10_000)).toBe(true)
      expect(await client.set('x', '1')).toBe('OK')
      // Lost once, back once: not a line per attempt.
      expect(lines).toEqual(['redis unreachable', 'redis reachable again'])
    } finally {
      await closeRedis(client)
    }
  })

  it('gives up waiting for a Redis that is not there', async () => {
    const client = createRedis('redis://127.0.0.1:1', { role: 'nowhere' })
    try {
      expect(await whenRedisReady(client, 200)).toBe(false)
    } finally {
      await closeRedis(client)
    }
    expect(await whenRedisReady(client, 200)).toBe(false)
  })
})
