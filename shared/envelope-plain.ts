/**
 * The envelope's codes and a reading of any envelope, without zod: for code that must not load it,
 * the client's first screen (its HTTP client and what it imports). envelope.ts re-exports all of
 * this next to the schemas.
 */

import { int, optional, readObject, string, unknown } from './plain-read'

/** Body codes of the response envelope (docs/product.md#calls, #error-catalogue). */
export const CODE = {
  /** Success, as most endpoints answer. */
  ok: 1,
  /** Success, as some endpoints answer. */
  okAlt: 200,
  /** The session is gone: the client clears the login and goes to /login?isreg=0. */
  sessionExpired: 10001,
  /** Also a lost session when it comes in the body. */
  sessionUnauthorized: 401,
  // Our own failure codes. Any code that is not a success or session code is a failure
  // whose message the client shows, so these only need to be distinct and stable.
  failed: 0,
  invalidInput: 40000,
  payloadTooLarge: 41300,
  rateLimited: 42900,
  /** A state-changing call sent by a page on another site. */
  crossSite: 40300,
  notFound: 40400,
  methodNotAllowed: 40500,
  conflict: 40900,
  internal: 50000,
  /** Proxy mode: the upstream's answer differs from the contract and was refused (UPSTREAM_NONCONFORMING=refuse). */
  badUpstream: 50200,
  /** The server is shedding load or stopping: try again after the answer's Retry-After. */
  unavailable: 50300,
} as const

export const SUCCESS_CODES: readonly number[] = [CODE.ok, CODE.okAlt]
export const SESSION_LOST_CODES: readonly number[] = [CODE.sessionExpired, CODE.sessionUnauthorized]

export const isSuccessCode = (code: number): boolean => SUCCESS_CODES.includes(code)
export const isSessionLostCode = (code: number): boolean => SESSION_LOST_CODES.includes(code)

/** Any envelope, data unchecked: what a failure or an unknown answer is read as. */
export interface LooseEnvelope {
  code: number
  msg?: string | undefined
  message?: string | undefined
  data?: unknown
}

/**
 * `value` read as a loose envelope, as envelope.ts's `looseEnvelopeSchema` parses it (an integer
 * `code`, optional string `msg` and `message`, any `data`; other keys dropped), or null when it is
 * not one. envelope.test.ts holds the two to the same answers.
 */
export const readLooseEnvelope = (value: unknown): LooseEnvelope | null =>
  readObject<LooseEnvelope>(value, {
    code: int,
    msg: optional(string),
    message: optional(string),
    data: unknown,
  })

/** The message an envelope carries: `message`, then `msg`, then undefined. */
export const envelopeMessage = (env: { msg?: string | undefined; message?: string | undefined }) =>
  env.message || env.msg || undefined
