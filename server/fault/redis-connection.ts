import { Redis } from 'ioredis'

/**
 * The two connections the shared fault layer uses (./shared-faults.ts): one for commands, one for
 * pub/sub. Commands fail at once while the connection is down instead of queueing (a player's
 * request never waits on a Redis that is away); the connection itself keeps retrying.
 */
export function connectFaultRedis(url: string): { redis: Redis; subscriber: Redis; close(): Promise<void> } {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
    connectionName: 'emu-faults',
  })
  // Subscribing is queued until the connection is up, and made again after each reconnection.
  const subscriber = redis.duplicate({ enableOfflineQueue: true, connectionName: 'emu-faults-sub' })
  return {
    redis,
    subscriber,
    async close() {
      subscriber.disconnect()
      redis.disconnect()
    },
  }
}
