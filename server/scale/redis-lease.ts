import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import type { Redis } from 'ioredis'
import type { Lease } from '../realtime/lease'

/** Takes the lease when free, renews it when ours; 1 when we hold it after. KEYS[1]; ARGV: owner, ttl ms. */
const HOLD_SCRIPT = `
local owner = redis.call('GET', KEYS[1])
if owner == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if not owner then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
`

/** Gives the lease up only when ours. KEYS[1]; ARGV: owner. */
const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
`

declare module 'ioredis' {
  interface RedisCommander {
    leaseHold(key: string, owner: string, ttlMs: number): Promise<number>
    leaseRelease(key: string, owner: string): Promise<number>
  }
}

export interface RedisLeaseOptions {
  readonly redis: Redis
  /** The job's name: one lease per name in the deployment (`upstream-reader`). */
  readonly name: string
  /** How long the lease outlives its holder's last renewal (ms); renew well within it. */
  readonly ttlMs: number
  readonly prefix?: string
  /** Who this process is; unique by default (host, process id, random). */
  readonly owner?: string
  /** Redis did not answer: this process does not do the job this turn. */
  readonly onError?: (err: unknown) => void
  /** This machine's clock (ms); tests hand in their own. */
  readonly now?: () => number
}

/**
 * A `Lease` (../realtime/lease.ts) in Redis: a key holding its owner's name with a time to live.
 * `tryHold` sets it when nobody holds it (SET NX PX, in a script) and renews it only when this
 * process is the owner; `release` deletes it only when this process is the owner. A holder that
 * stops renewing (a crash, a lost connection) loses it after `ttlMs`, and another process takes it.
 * An answer that the lease is ours is trusted for half its time to live, counted from when it was
 * asked: nobody can take it before it runs out, so `tryHold` answers true without asking Redis
 * until then. Past that, while Redis cannot be reached nobody holds it: `tryHold` answers false.
 */
export class RedisLease implements Lease {
  private readonly key: string
  readonly owner: string
  private readonly now: () => number
  /** When the last question that found the lease ours was asked; null: ask Redis next time. */
  private askedAt: number | null = null

  constructor(private readonly opts: RedisLeaseOptions) {
    if (!Number.isInteger(opts.ttlMs) || opts.ttlMs < 1) throw new RangeError('ttl must be ≥ 1 ms')
    this.key = `${opts.prefix ?? 'hashgame:lease'}:${opts.name}`
    this.owner = opts.owner ?? `${hostname()}:${process.pid}:${randomBytes(6).toString('hex')}`
    this.now = opts.now ?? Date.now
    if (!opts.redis.leaseHold) {
      opts.redis.defineCommand('leaseHold', { numberOfKeys: 1, lua: HOLD_SCRIPT })
      opts.redis.defineCommand('leaseRelease', { numberOfKeys: 1, lua: RELEASE_SCRIPT })
    }
  }

  async tryHold(): Promise<boolean> {
    const now = this.now()
    // Taken or renewed less than half its time to live ago (counted from when that was asked):
    // nobody else can hold it yet, so a turn of the job need not wait for Redis to say so.
    if (this.askedAt !== null && now - this.askedAt < this.opts.ttlMs / 2) return true
    this.askedAt = null
    try {
      const held = (await this.opts.redis.leaseHold(this.key, this.owner, this.opts.ttlMs)) === 1
      if (held) this.askedAt = now
      return held
    } catch (err) {
      this.opts.onError?.(err)
      return false
    }
  }

  async release(): Promise<void> {
    this.askedAt = null
    try {
      await this.opts.redis.leaseRelease(this.key, this.owner)
    } catch (err) {
      // It expires by itself after its time to live.
      this.opts.onError?.(err)
    }
  }
}
