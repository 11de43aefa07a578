import { once } from 'node:events'
import { connect } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../app'
import { testConfig } from '../config'
import { listenOnLoopback as listen } from '../test-support/listen'
import { rawExchange } from '../test-support/raw-socket'

/**
 * Proxy mode in front of an upstream that answers a large request before it has read its body (the
 * emulator does: an unknown path is refused at once). With one pooled connection, every request of
 * every client goes over the same upstream connection, so a connection left carrying unread bytes
 * would hold the next request until the upstream's keep-alive timeout (72 s) and then fail.
 */
let upstream: FastifyInstance
let proxy: FastifyInstance
let proxyUrl: string

beforeAll(async () => {
  upstream = await buildApp(testConfig())
  const upstreamUrl = await listen(upstream)
  proxy = await buildApp(testConfig({ MODE: 'proxy', UPSTREAM_URL: upstreamUrl, PROXY_CONNECTIONS: '1' }))
  proxyUrl = await listen(proxy)
})
afterAll(async () => {
  await proxy.close()
  await upstream.close()
})

/** One call on a connection of its own (another client each time). */
function call(method: string, path: string, body?: string, headers: Record<string, string> = {}) {
  const lines = [`${method} ${path} HTTP/1.1`, `Host: ${new URL(proxyUrl).host}`, 'Connection: close']
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`)
  if (body !== undefined) lines.push(`Content-Length: ${Buffer.byteLength(body)}`)
  return rawExchange(proxyUrl, `${lines.join('\r\n')}\r\n\r\n${body ?? ''}`)
}

describe('an upstream that answers before it reads the body', () => {
  it('holds up no other client: each next request is answered', async () => {
    const big = `a=${'x'.repeat(300_000)}`
    for (let i = 0; i < 5; i++) {
      // A browser-like client: its connection to the proxy is kept alive.
      const early = await fetch(`${proxyUrl}/api/no-such-endpoint`, {
        method: 'POST',
        body: big,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      })
      expect(early.status, `large request ${i}`).toBe(404)
      await early.text()
      const next = await call('GET', '/api/api2/announcement')
      expect(next.text, `next request ${i}`).toMatch(/^HTTP\/1\.1 200/)
      expect(next.text, next.text.slice(0, 600)).toContain('"code":1')
    }
  })
})

describe('Expect: 100-continue', () => {
  it('is answered 100 by the proxy, and the request goes through', async () => {
    const body = 'phone=13800138000&password=demo1234'
    const socket = connect(Number(new URL(proxyUrl).port), '127.0.0.1')
    await once(socket, 'connect')
    socket.write(
      [
        'POST /api/login HTTP/1.1',
        `Host: ${new URL(proxyUrl).host}`,
        'Connection: close',
        'Content-Type: application/x-www-form-urlencoded',
        `Content-Length: ${body.length}`,
        'Expect: 100-continue',
        '',
        '',
      ].join('\r\n'),
    )
    const chunks: Buffer[] = []
    socket.on('data', (c: Buffer) => chunks.push(c))
    // The body is sent only once the proxy says to go on, as a client that asks for it does.
    while (!Buffer.concat(chunks).toString().includes('100 Continue')) await once(socket, 'data')
    socket.write(body)
    await once(socket, 'close')
    const text = Buffer.concat(chunks).toString()
    expect(text).toMatch(/^HTTP\/1\.1 100 Continue/)
    expect(text).toContain('HTTP/1.1 200 OK')
    expect(text).toContain('"code":1')
  })
})
