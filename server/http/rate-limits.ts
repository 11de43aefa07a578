import type { Config } from '../config'

/** One per-address limit: at most `max` calls in `timeWindow` ms from one client address. */
export interface RateLimit {
  readonly max: number
  readonly timeWindow: number
}

const MINUTE = 60_000

/**
 * The limits on the calls a guesser or a spammer would repeat, by contract endpoint id: the same
 * in both modes. The emulator's routes take theirs from here; in proxy mode the proxy applies them
 * before forwarding (./upstream-proxy.ts), so an operator's backend gets them too. With
 * `REDIS_URL` set the counts are shared by every process (docs/deploy.md).
 */
export function rateLimits(config: Config): Readonly<Record<string, RateLimit>> {
  const login = { max: config.RATE_LIMIT_LOGIN, timeWindow: MINUTE }
  return {
    sendSms: { max: config.RATE_LIMIT_SMS, timeWindow: MINUTE },
    register: { max: config.RATE_LIMIT_REGISTER, timeWindow: MINUTE },
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
