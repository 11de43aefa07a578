import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../app'
import { testConfig } from '../config'

/** A built client as Vite and vite-plugin-pwa lay it out (docs/pwa.md). */
let dist = ''
beforeAll(() => {
  dist = mkdtempSync(join(tmpdir(), 'static-client-'))
  mkdirSync(join(dist, 'assets'))
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>app</title>')
  writeFileSync(join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {})')
  writeFileSync(join(dist, 'workbox-1a2b3c4d.js'), 'define([], () => {})')
  writeFileSync(join(dist, 'manifest.webmanifest'), '{"name":"app"}')
  writeFileSync(join(dist, 'assets', 'index-AbC123.js'), 'export {}')
})
afterAll(() => rmSync(dist, { recursive: true, force: true }))

describe('the built client', () => {
  it('serves the service worker and the manifest uncached, hashed assets for a year', async () => {
    const app = await buildApp(testConfig({ CLIENT_DIST: dist }))
    try {
      const sw = await app.inject({ url: '/sw.js' })
      expect(sw.statusCode).toBe(200)
      expect(sw.headers['content-type']).toMatch(/^application\/javascript/)
      // The browser must see a new build's worker on its next check, not a cached copy.
      expect(sw.headers['cache-control']).toContain('no-cache')

      const runtime = await app.inject({ url: '/workbox-1a2b3c4d.js' })
      expect(runtime.statusCode).toBe(200)
      expect(runtime.headers['content-type']).toMatch(/^application\/javascript/)

      const manifest = await app.inject({ url: '/manifest.webmanifest' })
      expect(manifest.statusCode).toBe(200)
      expect(manifest.headers['content-type']).toBe('application/manifest+json')
      expect(manifest.headers['cache-control']).toContain('no-cache')

      const asset = await app.inject({ url: '/assets/index-AbC123.js' })
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    } finally {
      await app.close()
    }
  })

  it('allows the worker and the manifest from the page origin in the CSP, and nothing else', async () => {
    const app = await buildApp(testConfig({ CLIENT_DIST: dist }))
    try {
      const page = await app.inject({ url: '/home' })
      const directives = String(page.headers['content-security-policy'])
        .split(';')
        .map((d) => d.trim())
      expect(directives).toContain("worker-src 'self'")
      expect(directives).toContain("manifest-src 'self'")
    } finally {
      await app.close()
    }
  })

  it('sends a hashed script only the headers a script needs, and the worker the page policy', async () => {
    const app = await buildApp(testConfig({ CLIENT_DIST: dist }))
    try {
      const asset = await app.inject({ url: '/assets/index-AbC123.js' })
      expect(asset.headers['x-content-type-options']).toBe('nosniff')
      expect(asset.headers['cross-origin-resource-policy']).toBe('same-origin')
      for (const name of ['content-security-policy', 'strict-transport-security', 'x-frame-options'])
        expect(asset.headers[name]).toBeUndefined()
      // A path that climbs out of /assets/ never gets the page without the page's headers.
      for (const url of ['/assets/..%2findex.html', '/assets/%2e%2e/index.html', '/assets/..%2fsw.js']) {
        const res = await app.inject({ url })
        if (res.statusCode < 400 || /html|javascript/.test(String(res.headers['content-type'])))
          expect(String(res.headers['content-security-policy']), url).toContain("script-src 'self'")
      }

      // A worker runs under the policy of its own script's answer, not the page's.
      const sw = await app.inject({ url: '/sw.js' })
      expect(String(sw.headers['content-security-policy'])).toContain("script-src 'self'")
      const page = await app.inject({ url: '/home' })
      expect(page.headers['strict-transport-security']).toBeDefined()
    } finally {
      await app.close()
    }
  })

  it('answers a missing manifest with a 404, not with the app page', async () => {
    const app = await buildApp(testConfig({ CLIENT_DIST: dist }))
    try {
      const res = await app.inject({ url: '/missing.webmanifest' })
      expect(res.statusCode).toBe(404)
      expect(res.headers['content-type']).toMatch(/^application\/json/)
    } finally {
      await app.close()
    }
  })
})
