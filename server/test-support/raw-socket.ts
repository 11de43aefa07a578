import { connect } from 'node:net'

/**
 * Sends raw bytes to a server on a connection of its own and reads until the connection ends:
 * everything that arrived, and how it ended (`closed`, or the socket error's code, e.g. a reset).
 * For what a client library would hide: a head written by hand, an answer cut off by a reset.
 */
export function rawExchange(base: string, bytes: string): Promise<{ text: string; end: string }> {
  const { hostname, port } = new URL(base)
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes))
    const chunks: Buffer[] = []
    let end = 'closed'
    socket.on('data', (c: Buffer) => chunks.push(c))
    socket.on('error', (err: NodeJS.ErrnoException) => {
      end = err.code ?? err.message
    })
    socket.on('close', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), end }))
  })
}
