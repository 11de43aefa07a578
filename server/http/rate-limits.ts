import type { Config } from '../config'
import type { WhenStoreDown } from '../scale/rate-limit-store'

/**
 * One per-address limit: at most `max` calls in `timeWindow` ms from one client address, and what
 * it does when its shared counts (Redis, docs/deploy.md#redis-down) cannot be read: let calls
 * through uncounted (`open`) or refuse them (`closed`).
 */
export interface RateLimit {
  readonly max: number
  readonly timeWindow: number
  readonly whenStoreDown: WhenStoreDown
}

const MINUTE = 60_000

/**
 * The limits on the calls a guesser or a spammer would repeat, by contract endpoint id: the same
 * in both modes. The emulator's routes take theirs from here; in proxy mode the proxy applies them
 * before forwarding (../plugins/upstream-proxy.ts), so an operator's backend gets them too. With
 * `REDIS_URL` set the counts are shared by every process.
 */
export function rateLimits(config: Config): Readonly<Record<string, RateLimit>> {
  // Closed: the only bound on guessing passwords from one address.
  const login = { max: config.RATE_LIMIT_LOGIN, timeWindow: MINUTE, whenStoreDown: 'closed' } as const
  return {
    // Closed: each code sent costs money and can flood a phone.
    sendSms: { max: config.RATE_LIMIT_SMS, timeWindow: MINUTE, whenStoreDown: 'closed' },
    // Open: registering needs a code from the SMS route, whose limit stays closed.
    register: { max: config.RATE_LIMIT_REGISTER, timeWindow: MINUTE, whenStoreDown: 'open' },
    login,
    // Each wrong code also counts against the code itself.
    resetPassword: login,
    // A password checked behind a session, and the protected player's flow without one.
    startExclusion: login,
    excludedWithdraw: login,
    excludedAccount: login,
    excludedSms: login,
    excludedSetup: login,
  }
}

/** The route option of a limited endpoint (see contractRoute), or nothing for one without a limit. */
export function limitOf(config: Config, endpointId: string): { rateLimit?: RateLimit } {
  const limit = rateLimits(config)[endpointId]
  return limit ? { rateLimit: limit } : {}
}
