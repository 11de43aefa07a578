import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { isIP } from 'node:net'
import { ADMIN_TOKEN_HEADER } from '@shared/emu-control'
import type { FastifyReply, FastifyRequest } from 'fastify'

/** Header that marks the calls the server makes to itself (scenario steps): the layer lets them by. */
export const INTERNAL_HEADER = 'x-emu-internal'

/**
 * Who may drive the fault layer: with EMU_ADMIN_TOKEN configured, every /__emu call must carry it
 * (401 without it, 403 with a wrong one); without one, only this machine may call it. The calls the
 * server makes to itself, which pass the layer untouched, prove it with a key made at start.
 */
export class AdminAccess {
  /** Proves a request came from the server itself; new at every start, never sent anywhere else. */
  readonly internalKey = randomBytes(16).toString('hex')

  /** `adminToken`: EMU_ADMIN_TOKEN; none leaves the API open to this machine only. */
  constructor(private readonly adminToken: string | undefined) {}

  /**
   * The guard of /__emu: with a token, 401 without it and 403 with a wrong one; without a token, 403
   * for any peer but this machine. The peer is read from the socket, never from a forwarding header,
   * so no client can claim to be local. Nothing when the call may go on.
   */
  check(request: FastifyRequest, reply: FastifyReply): FastifyReply | undefined {
    if (this.adminToken === undefined) {
      if (isLoopback(request.raw.socket.remoteAddress)) return
      return reply
        .code(403)
        .send({ code: 403, msg: '未设置 EMU_ADMIN_TOKEN 时控制接口仅限本机访问', data: null })
    }
    const given = request.headers[ADMIN_TOKEN_HEADER]
    if (given === undefined) {
      return reply.code(401).send({ code: 401, msg: `缺少 ${ADMIN_TOKEN_HEADER}`, data: null })
    }
    if (!adminTokenMatches(given, this.adminToken)) {
      return reply.code(403).send({ code: 403, msg: `${ADMIN_TOKEN_HEADER} 不正确`, data: null })
    }
  }

  /** A call the server made to itself; the marker is removed so it never travels upstream. */
  isInternal(request: FastifyRequest): boolean {
    const marked = request.headers[INTERNAL_HEADER]
    if (marked === undefined) return false
    delete request.headers[INTERNAL_HEADER]
    return marked === this.internalKey
  }
}

const digest = (s: string) => createHash('sha256').update(s).digest()

/** Constant-time: compares digests, so neither the length nor a prefix of the token leaks. */
export function adminTokenMatches(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false
  return timingSafeEqual(digest(given), digest(expected))
}

/** Whether a socket's peer address is this machine's (127.0.0.0/8, ::1, or 127.x mapped into IPv6). */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address
  if (isIP(v4) === 4) return v4.startsWith('127.')
  return address === '::1'
}
