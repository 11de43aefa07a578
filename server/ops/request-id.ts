import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { compile } from '@fastify/proxy-addr'
import type { TrustProxy } from '../config'

/** The header a request id travels in, both ways and upstream. */
export const REQUEST_ID_HEADER = 'x-request-id'

/** What an id taken from a proxy may look like: short, printable, no spaces (it goes into logs and headers). */
const ACCEPTABLE = /^[\w.:@/+=-]{1,128}$/

/**
 * Fastify's `genReqId`: the `x-request-id` a trusted proxy in front sent (the same TRUST_PROXY rule
 * that decides whose X-Forwarded-For is believed), else a new UUID. A client that is not a trusted
 * proxy cannot choose the id its requests are logged under.
 */
export function requestIdGenerator(trust: TrustProxy): (req: IncomingMessage) => string {
  const peerTrusted = trustsPeer(trust)
  return (req) => {
    const given = req.headers[REQUEST_ID_HEADER]
    if (typeof given === 'string' && ACCEPTABLE.test(given) && peerTrusted(req.socket?.remoteAddress ?? '')) {
      return given
    }
    return randomUUID()
  }
}

/** Whether the connection's own peer is one TRUST_PROXY believes. */
function trustsPeer(trust: TrustProxy): (address: string) => boolean {
  if (trust === true) return () => true
  if (trust === false || trust === 0) return () => false
  if (typeof trust === 'number') return () => true // a hop count trusts the nearest peer, whoever it is
  const compiled = compile(trust)
  return (address) => address !== '' && compiled(address, 0)
}
