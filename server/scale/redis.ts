import { Redis } from 'ioredis'

/** What a Redis client reports its failures to (the app's logger, or nothing). */
export interface RedisLog {
  warn(obj: object, msg: string): void
  info(obj: object, msg: string): void
}

export interface RedisClientOptions {
  /**
   * What the client is for (`commands`, `events`, `rate-limit`, `fault-rules`…): it names the
   * connection on the Redis side (`CLIENT LIST`) and in the log.
   */
  readonly role: string
  readonly log?: RedisLog
  /** Longest wait for one command's answer (ms); a Redis that hangs fails the command instead. */
  readonly commandTimeoutMs?: number
  /** Longest wait to connect (ms). */
  readonly connectTimeoutMs?: number
}

/** How long a command may take before it fails (ms): requests wait on some (rate limits). */
export const REDIS_COMMAND_TIMEOUT_MS = 500
/** How long connecting may take before the attempt fails and is tried again (ms). */
export const REDIS_CONNECT_TIMEOUT_MS = 1_000
/** The longest pause between two attempts to reconnect (ms). */
const MAX_RECONNECT_DELAY_MS = 2_000

/**
 * A client of the deployment's shared Redis (`REDIS_URL`, docs/deploy.md), made so that a Redis
 * that is down or hangs never stalls the caller:
 *
 * - no offline queue: while disconnected a command fails at once instead of waiting for a
 *   connection (`enableOfflineQueue: false`);
 * - a command that gets no answer within `commandTimeoutMs` fails (`commandTimeout`);
 * - connecting gives up after `connectTimeoutMs` and is tried again, every 2 s at most, for ever;
 * - a failure is logged once when the connection is lost and once when it is back, not at every
 *   attempt.
 *
 * Subscribers (`role` whose client will `subscribe`) are made the same way; a subscribed client
 * takes no other command.
 */
export function createRedis(url: string, opts: RedisClientOptions): Redis {
  const client = new Redis(url, {
    connectionName: `hashgame-${opts.role}`,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: opts.connectTimeoutMs ?? REDIS_CONNECT_TIMEOUT_MS,
    commandTimeout: opts.commandTimeoutMs ?? REDIS_COMMAND_TIMEOUT_MS,
    retryStrategy: (times) => Math.min(100 * 2 ** Math.min(times, 5), MAX_RECONNECT_DELAY_MS),
    // Whoever subscribes does so again on each `ready` (see RedisEventHub), knowing when it is done.
    autoResubscribe: false,
    // A command in flight when the connection drops fails; it is not sent again later.
    autoResendUnfulfilledCommands: false,
  })
  let down = false
  const lost = (reason: string) => {
    if (down || closing.has(client)) return
    down = true
    opts.log?.warn({ role: opts.role, reason }, 'redis unreachable')
  }
  client.on('error', (err: Error) => lost(err.message))
  client.on('close', () => lost('connection closed'))
  client.on('ready', () => {
    if (!down) return
    down = false
    opts.log?.info({ role: opts.role }, 'redis reachable again')
  })
  return client
}

/** Clients being closed on purpose: their closing is not logged as Redis being lost. */
const closing = new WeakSet<Redis>()

/** Whether a client can take commands now. */
export const isRedisUp = (client: Redis): boolean => client.status === 'ready'

/**
 * Resolves true once the client is ready, or false after `ms` (or at once when it has been closed).
 * The wait a start-up grants Redis before serving without it.
 */
export function whenRedisReady(client: Redis, ms: number): Promise<boolean> {
  if (client.status === 'ready') return Promise.resolve(true)
  if (client.status === 'end') return Promise.resolve(false)
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer)
      client.off('ready', onReady)
      client.off('end', onEnd)
      resolve(ok)
    }
    const onReady = () => done(true)
    const onEnd = () => done(false)
    const timer = setTimeout(() => done(false), ms)
    client.on('ready', onReady)
    client.on('end', onEnd)
  })
}

/** Closes a client: QUIT when connected, else at once. Never throws. */
export async function closeRedis(client: Redis): Promise<void> {
  if (client.status === 'end') return
  closing.add(client)
  if (client.status !== 'ready') {
    client.disconnect()
    return
  }
  try {
    await client.quit()
  } catch {
    client.disconnect()
  }
}
