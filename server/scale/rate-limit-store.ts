import type {
  FastifyRateLimitOptions,
  FastifyRateLimitStore,
  FastifyRateLimitStoreCtor,
} from '@fastify/rate-limit'
import { CODE } from '@shared/envelope'
import { SERVER_MSG } from '@shared/messages'
import type { Redis } from 'ioredis'
import { ApiError } from '../http/api-error'

/** Counts one call in the window; starts the window on the first. KEYS[1]; ARGV[1] the window (ms). */
const INCR_SCRIPT = `
local current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}
`

declare module 'ioredis' {
  interface RedisCommander {
    rateLimitCount(key: string, windowMs: number): Promise<[number, number]>
  }
}

/**
 * What a limit does when its counts cannot be read (Redis down or hanging): `open` lets the call
 * through uncounted, `closed` refuses it (503 in the envelope). Chosen per limit; docs/deploy.md
 * says which and why.
 */
export type WhenStoreDown = 'open' | 'closed'

/** A fail-closed limit's answer while its counts cannot be read: a clear refusal, never a 500. */
export const storeDownRefusal = (): ApiError => new ApiError(CODE.unavailable, SERVER_MSG.internal, 503)

export interface SharedRateLimitOptions {
  readonly redis: Redis
  readonly prefix?: string
  /** A count that failed: on which route, and whether the call went through (`open`) or not. */
  readonly onStoreError?: (route: string, whenDown: WhenStoreDown, err: unknown) => void
}

/**
 * @fastify/rate-limit's store over the deployment's Redis (docs/deploy.md): every process counts
 * in the same keys (`<prefix><METHOD><route>-<client address>`), so a limit of 10 a minute is 10
 * for the deployment, not 10 per process. A count that fails is answered with `storeDownRefusal`,
 * which a fail-closed limit sends and a fail-open one (`skipOnError`) ignores. The client's
 * timeouts (../scale/redis.ts) bound how long a request waits on it.
 */
export function sharedRateLimitStore(opts: SharedRateLimitOptions): FastifyRateLimitStoreCtor {
  const { redis } = opts
  if (!redis.rateLimitCount) redis.defineCommand('rateLimitCount', { numberOfKeys: 1, lua: INCR_SCRIPT })

  const make = (key: string, route: string, whenDown: WhenStoreDown): FastifyRateLimitStore => ({
    incr(id, callback, timeWindow) {
      redis.rateLimitCount(`${key}${id}`, timeWindow).then(
        ([current, ttl]) => callback(null, { current, ttl }),
        (err: unknown) => {
          opts.onStoreError?.(route, whenDown, err)
          callback(storeDownRefusal())
        },
      )
    },
    child(routeOptions) {
      const params = routeOptions as unknown as {
        skipOnError?: boolean
        routeInfo?: { method?: unknown; url?: string }
      }
      const method = String(params.routeInfo?.method ?? routeOptions.method)
      const url = params.routeInfo?.url ?? routeOptions.url
      return make(`${key}${method}${url}-`, url, params.skipOnError ? 'open' : 'closed')
    },
  })

  return class {
    constructor(_options: FastifyRateLimitOptions) {
      // biome-ignore lint/correctness/noConstructorReturn: the plugin builds its store with `new`
      return make(opts.prefix ?? 'hashgame:rate:', 'all', 'closed')
    }
  } as unknown as FastifyRateLimitStoreCtor
}
