import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import type { FastifyBaseLogger } from 'fastify'
import type { Redis } from 'ioredis'
import type { Health } from '../ops/health'
import type { Metrics } from '../ops/metrics'
import type { Lease } from '../realtime/lease'
import { sharedRateLimitStore } from './rate-limit-store'
import { closeRedis, createRedis, isRedisUp, whenRedisReady } from './redis'
import { RedisEventHub } from './redis-hub'
import { RedisLease } from './redis-lease'

/** How long a start waits for Redis before serving without it (it keeps trying in the background). */
const START_WAIT_MS = 3_000

/**
 * What the processes of a deployment share through Redis (`REDIS_URL`, docs/deploy.md): the push
 * channel's hub, the rate limits' counts, and leases for the jobs one process does for all.
 */
export interface SharedState {
  readonly hub: RedisEventHub
  readonly rateLimitStore: FastifyRateLimitStoreCtor
  /** A lease on a job in the deployment (`upstream-reader`…), renewed within `ttlMs`. */
  lease(name: string, ttlMs: number): Lease
  /** Whether Redis answers and the hub has caught up: the readiness check. */
  up(): boolean
  close(): Promise<void>
}

export interface SharedStateOptions {
  readonly url: string
  readonly replaySize: number
  /** The server time of the hub's gap snapshots. */
  readonly now: () => number
  readonly log: FastifyBaseLogger
  readonly metrics: Metrics | null
  readonly health: Health
  readonly startWaitMs?: number
}

/**
 * Connects to the deployment's Redis with two clients (commands; the hub's subscriber) and builds
 * what rides on them. A Redis that is not there at start delays the start by a few seconds at
 * most: the process then serves, not ready (`/readyz` says `redis: unreachable`), and connects
 * when Redis comes.
 */
export async function connectSharedState(opts: SharedStateOptions): Promise<SharedState> {
  const log = opts.log.child({ component: 'redis' })
  const commands: Redis = createRedis(opts.url, { role: 'commands', log })
  const subscriber: Redis = createRedis(opts.url, { role: 'events', log })
  const metrics = opts.metrics
  const hub = new RedisEventHub({
    commands,
    subscriber,
    replaySize: opts.replaySize,
    now: opts.now,
    log,
    onPublishFailed: (err) => {
      metrics?.streamPublishFailures.inc()
      log.warn(
        { err: { message: err instanceof Error ? err.message : String(err) } },
        'push channel: event lost',
      )
    },
    onListenerError: (err) => log.error({ err }, 'push channel listener failed'),
  })
  const rateLimitStore = sharedRateLimitStore({
    redis: commands,
    onStoreError: (route, whenDown) =>
      metrics?.rateLimitStoreErrors.inc({ route, outcome: whenDown === 'open' ? 'allowed' : 'refused' }),
  })
  const up = () => isRedisUp(commands) && hub.ready
  opts.health.add('redis', () => (!isRedisUp(commands) ? 'unreachable' : hub.ready ? null : 'catching up'))
  metrics?.gauge(
    'redis_up',
    '1 while Redis (REDIS_URL) answers and the push channel has caught up, else 0',
    () => (up() ? 1 : 0),
  )

  const wait = opts.startWaitMs ?? START_WAIT_MS
  const started = Date.now()
  const connected = (await whenRedisReady(commands, wait)) && (await whenRedisReady(subscriber, wait))
  while (connected && !hub.ready && Date.now() - started < wait) await new Promise((r) => setTimeout(r, 10))
  if (!up())
    log.warn({ waitedMs: Date.now() - started }, 'redis not ready at start: serving without it until it is')

  return {
    hub,
    rateLimitStore,
    lease: (name, ttlMs) =>
      new RedisLease({
        redis: commands,
        name,
        ttlMs,
        onError: (err) => log.debug({ err, lease: name }, 'lease: redis did not answer'),
      }),
    up,
    async close() {
      await hub.close()
      await Promise.all([closeRedis(commands), closeRedis(subscriber)])
    },
  }
}
