import { isIP } from 'node:net'
import fp from 'fastify-plugin'

/** Whether a socket's peer address is this machine's (127.0.0.0/8, ::1, or 127.x mapped into IPv6). */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address
  if (isIP(v4) === 4) return v4.startsWith('127.')
  return address === '::1'
}

const isControl = (url: string) => url === '/__emu' || url.startsWith('/__emu/') || url.startsWith('/__emu?')

/**
 * Without EMU_ADMIN_TOKEN the tester's API answers only this machine. The peer is read from the
 * socket, never from a forwarding header, so no client can claim to be local.
 */
export const emuLoopbackOnly = fp(
  async (app) => {
    app.addHook('onRequest', (request, reply, done) => {
      if (!isControl(request.url) || isLoopback(request.raw.socket.remoteAddress)) return done()
      reply.code(403).send({ code: 403, msg: '未设置 EMU_ADMIN_TOKEN 时控制接口仅限本机访问', data: null })
    })
  },
  { name: 'emu-loopback-only' },
)
