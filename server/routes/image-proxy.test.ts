import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { IMAGE_PROXY_PATH } from '@shared/contract/content'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../app'
import { testConfig } from '../config'
import { installErrorHandler } from '../http/error-handler'
import { zodValidatorCompiler } from '../http/validation'
import { isPublicAddress } from '../image-proxy/address-policy'
import { createTestApp } from '../test-support/test-app'
import { imageProxyRoutes } from './image-proxy'

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
)
const LIMIT = 1000

/** An image host on 127.0.0.1 that misbehaves in every way the proxy must refuse. */
let upstream: http.Server
let port = 0
const seen: { url: string; host: string | undefined }[] = []

beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    seen.push({ url: req.url ?? '', host: req.headers.host })
    const path = req.url ?? ''
    const png = (body: Buffer, extra: Record<string, string> = {}) => {
      res.writeHead(200, { 'content-type': 'image/png', ...extra })
      res.end(body)
    }
    const redirect = (to: string) => {
      res.writeHead(302, { location: to })
      res.end()
    }
    switch (path) {
      case '/ok.png':
        return png(PNG, { 'content-length': String(PNG.length) })
      case '/page.html':
        res.writeHead(200, { 'content-type': 'text/html' })
        return res.end('<script>alert(1)</script>')
      case '/image.svg':
        res.writeHead(200, { 'content-type': 'image/svg+xml' })
        return res.end('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')
      case '/lying.png':
        return png(Buffer.from('<html><script>alert(1)</script></html>'))
      case '/big.png':
        return png(Buffer.concat([PNG, Buffer.alloc(LIMIT)]))
      case '/big-chunked.png': {
        res.writeHead(200, { 'content-type': 'image/png' })
        res.write(PNG)
        // No content-length: only counting the bytes as they come can catch it.
        for (let i = 0; i < 10; i++) res.write(Buffer.alloc(200))
        return res.end()
      }
      case '/slow-body.png':
        res.writeHead(200, { 'content-type': 'image/png' })
        res.write(PNG.subarray(0, 8))
        return // never ends
      case '/hang':
        return // never answers
      case '/to-ok':
        return redirect('/ok.png')
      case '/to-private-ip':
        return redirect('http://10.0.0.7/ok.png')
      case '/to-metadata':
        return redirect('http://169.254.169.254/latest/meta-data/')
      case '/to-private-name':
        return redirect(`http://internal.test:${port}/ok.png`)
      case '/to-off-list':
        return redirect(`http://elsewhere.test:${port}/ok.png`)
      case '/loop':
        return redirect('/loop')
      case '/missing.png':
        res.writeHead(404, { 'content-type': 'text/plain' })
        return res.end('no')
      default:
        res.writeHead(500)
        return res.end()
    }
  })
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
  port = (upstream.address() as AddressInfo).port
})

afterAll(async () => {
  upstream.closeAllConnections()
  await new Promise((resolve) => upstream.close(resolve))
})

afterEach(() => {
  seen.length = 0
})

/** Names the tests resolve without real DNS. */
const FAKE_DNS: Record<string, string[]> = {
  'img.test': ['127.0.0.1'],
  'internal.test': ['10.0.0.5'],
  'elsewhere.test': ['127.0.0.1'],
  'rebind.test': ['127.0.0.1', '192.168.0.10'],
}
let lookups: string[] = []

/**
 * The proxy as configured for these tests, with the one test-only allowance: 127.0.0.1 (where
 * the test server listens) counts as reachable. Every other private address stays refused.
 */
async function proxyApp(env: Record<string, string> = {}): Promise<FastifyInstance> {
  const app = Fastify({ logger: false })
  app.setValidatorCompiler(zodValidatorCompiler)
  installErrorHandler(app)
  await app.register(imageProxyRoutes, {
    config: testConfig({
      IMAGE_PROXY_HOSTS: `127.0.0.1:${port}, img.test:${port}, internal.test:${port}, rebind.test:${port}`,
      IMAGE_PROXY_ALLOW_HTTP: 'true',
      IMAGE_PROXY_MAX_BYTES: String(LIMIT),
      IMAGE_PROXY_TIMEOUT_MS: '400',
      ...env,
    }),
    overrides: {
      isAllowedAddress: (ip) => ip === '127.0.0.1' || isPublicAddress(ip),
      resolve: async (host) => {
        lookups.push(host)
        const found = FAKE_DNS[host]
        if (!found) throw new Error(`ENOTFOUND ${host}`)
        return found
      },
    },
  })
  await app.ready()
  return app
}

const proxied = (app: FastifyInstance, url: string, responseType = 'blob') =>
  app.inject({ url: `${IMAGE_PROXY_PATH}?url=${encodeURIComponent(url)}&responseType=${responseType}` })

describe('image proxy', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await proxyApp()
  })
  afterAll(async () => {
    await app.close()
  })
  afterEach(() => {
    lookups = []
  })

  it('passes an allow-listed image through as bytes (blob) or as a data URL (text)', async () => {
    const blob = await proxied(app, `http://127.0.0.1:${port}/ok.png`)
    expect(blob.statusCode).toBe(200)
    expect(blob.headers['content-type']).toBe('image/png')
    expect(blob.rawPayload).toEqual(PNG)
    expect(blob.headers['content-security-policy']).toContain('sandbox')

    const text = await proxied(app, `http://127.0.0.1:${port}/ok.png`, 'text')
    expect(text.statusCode).toBe(200)
    expect(text.headers['content-type']).toMatch(/^text\/plain/)
    expect(text.body).toBe(`data:image/png;base64,${PNG.toString('base64')}`)
  })

  it('connects to the address it checked, with the name as Host, after one lookup per hop', async () => {
    const res = await proxied(app, `http://img.test:${port}/ok.png`)
    expect(res.statusCode).toBe(200)
    expect(seen).toEqual([{ url: '/ok.png', host: `img.test:${port}` }])
    expect(lookups).toEqual(['img.test'])
  })

  it('follows a redirect on the list, re-checking the hop', async () => {
    const res = await proxied(app, `http://127.0.0.1:${port}/to-ok`)
    expect(res.statusCode).toBe(200)
    expect(seen.map((s) => s.url)).toEqual(['/to-ok', '/ok.png'])
  })

  it('refuses a host off the list, and never contacts it', async () => {
    for (const url of [
      'https://evil.example/x.png',
      `http://elsewhere.test:${port}/ok.png`,
      `http://127.0.0.1:${port + 1}/ok.png`, // listed host, other port
      `http://localhost:${port}/ok.png`,
    ]) {
      const res = await proxied(app, url)
      expect(res.statusCode, url).toBe(403)
      expect(res.json()).toMatchObject({ code: 0, msg: '图片地址不在允许列表中', data: null })
    }
    expect(seen).toEqual([])
    expect(lookups).toEqual([])
  })

  it('refuses private, loopback and link-local addresses even when the name is listed', async () => {
    const res = await proxied(app, `http://internal.test:${port}/ok.png`)
    expect(res.statusCode).toBe(403)
    expect(res.json().msg).toBe('不允许访问该地址')
    // A name with one good and one private address is refused as a whole (DNS rebinding).
    expect((await proxied(app, `http://rebind.test:${port}/ok.png`)).statusCode).toBe(403)
    expect(seen).toEqual([])
  })

  it('refuses a redirect to a private address or off the list', async () => {
    for (const [path, msg] of [
      ['/to-private-ip', '图片地址不在允许列表中'],
      ['/to-metadata', '图片地址不在允许列表中'],
      ['/to-off-list', '图片地址不在允许列表中'],
      ['/to-private-name', '不允许访问该地址'],
    ] as const) {
      const res = await proxied(app, `http://127.0.0.1:${port}${path}`)
      expect(res.statusCode, path).toBe(403)
      expect(res.json().msg, path).toBe(msg)
    }
    // Only the first hops reached the test server; no redirect target was ever contacted.
    expect(seen.map((s) => s.url)).toEqual([
      '/to-private-ip',
      '/to-metadata',
      '/to-off-list',
      '/to-private-name',
    ])
  })

  it('stops endless redirects', async () => {
    const res = await proxied(app, `http://127.0.0.1:${port}/loop`)
    expect(res.statusCode).toBe(502)
    expect(res.json().msg).toBe('图片地址重定向次数过多')
    expect(seen).toHaveLength(4) // the first request and 3 redirects
  })

  it('refuses anything that is not a raster image: HTML, SVG, or bytes that lie about their type', async () => {
    for (const path of ['/page.html', '/image.svg', '/lying.png']) {
      const res = await proxied(app, `http://127.0.0.1:${port}${path}`)
      expect(res.statusCode, path).toBe(415)
      expect(res.json().msg).toBe('只能代理图片')
    }
  })

  it('refuses a body over the limit, declared or streamed', async () => {
    for (const path of ['/big.png', '/big-chunked.png']) {
      const res = await proxied(app, `http://127.0.0.1:${port}${path}`)
      expect(res.statusCode, path).toBe(413)
      expect(res.json().msg).toBe('图片过大')
    }
  })

  it('gives up on an upstream slower than its time limit', async () => {
    for (const path of ['/hang', '/slow-body.png']) {
      const res = await proxied(app, `http://127.0.0.1:${port}${path}`)
      expect(res.statusCode, path).toBe(504)
      expect(res.json().msg).toBe('图片加载超时')
    }
  })

  it('passes on an upstream failure as a failure', async () => {
    const res = await proxied(app, `http://127.0.0.1:${port}/missing.png`)
    expect(res.statusCode).toBe(502)
    expect(res.json().msg).toBe('图片加载失败（404）')
  })

  it('refuses other schemes, credentials in the URL, and bad input', async () => {
    for (const url of [
      'file:///etc/passwd',
      `ftp://127.0.0.1:${port}/ok.png`,
      'data:image/png;base64,AAAA',
      'gopher://x',
    ]) {
      expect((await proxied(app, url)).statusCode, url).toBe(403)
    }
    expect((await proxied(app, `http://user:pw@127.0.0.1:${port}/ok.png`)).statusCode).toBe(400)
    expect((await proxied(app, 'not a url')).statusCode).toBe(400)
    expect((await app.inject({ url: IMAGE_PROXY_PATH })).statusCode).toBe(400)
    expect((await app.inject({ url: `${IMAGE_PROXY_PATH}?url=x&responseType=document` })).statusCode).toBe(
      400,
    )
    expect(seen).toEqual([])
  })

  it('refuses plain http unless configured', async () => {
    const strict = await proxyApp({ IMAGE_PROXY_ALLOW_HTTP: 'false' })
    try {
      const res = await proxied(strict, `http://127.0.0.1:${port}/ok.png`)
      expect(res.statusCode).toBe(403)
      expect(res.json().msg).toBe('不支持的图片地址协议')
    } finally {
      await strict.close()
    }
  })
})

describe('image proxy as the app runs it', () => {
  it('refuses loopback even when it is on the list (no test allowance)', async () => {
    const t = await createTestApp({
      IMAGE_PROXY_HOSTS: `127.0.0.1:${port},localhost:${port}`,
      IMAGE_PROXY_ALLOW_HTTP: 'true',
    })
    try {
      for (const url of [
        `http://127.0.0.1:${port}/ok.png`,
        `http://localhost:${port}/ok.png`,
        `http://[::1]:${port}/ok.png`,
      ]) {
        const res = await proxied(t.app, url)
        expect(res.statusCode, url).toBe(403)
      }
      expect(seen).toEqual([])
    } finally {
      await t.close()
    }
  })

  it('answers in proxy mode too, instead of passing the call to the upstream', async () => {
    let upstreamCalls = 0
    const api = http.createServer((_req, res) => {
      upstreamCalls++
      res.end('{}')
    })
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve))
    const app = await buildApp(
      testConfig({ MODE: 'proxy', UPSTREAM_URL: `http://127.0.0.1:${(api.address() as AddressInfo).port}` }),
    )
    try {
      const res = await proxied(app, 'https://evil.example/x.png')
      expect(res.statusCode).toBe(403)
      expect(res.json().msg).toBe('图片地址不在允许列表中')
      expect(upstreamCalls).toBe(0)
    } finally {
      await app.close()
      api.closeAllConnections()
      await new Promise((resolve) => api.close(resolve))
    }
  })
})
