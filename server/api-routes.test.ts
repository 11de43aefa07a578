import { ENDPOINTS } from '@shared/contract/registry'
import { STREAM_ENDPOINTS } from '@shared/contract/stream'
import { describe, expect, it } from 'vitest'
import { buildApp } from './app'
import { testConfig } from './config'

/**
 * Every /api route comes from a contract object, and every contract object has its route, as
 * control-openapi.test.ts checks for /__emu. An endpoint written but left out of
 * shared/contract/registry.ts, or a route added by hand, fails here.
 */

/**
 * The two /api routes that answer bytes rather than the envelope, and so are not contract objects
 * yet: the image proxy and the content images (see docs/contributing.md).
 */
const NOT_IN_THE_CONTRACT = new Set(['GET /api/image-proxy', 'GET /api/content/images/:file'])

describe('/api routes and the contract', () => {
  it('match one to one in emulator mode', async () => {
    const app = await buildApp(testConfig())
    try {
      await app.ready()
      const routes = new Set(
        app.routeList
          .filter((r) => r.url === '/api' || r.url.startsWith('/api/'))
          .filter((r) => r.method !== 'HEAD')
          .map((r) => `${r.method} ${r.url}`),
      )
      const contract = new Set([...ENDPOINTS, ...STREAM_ENDPOINTS].map((e) => `${e.method} ${e.path}`))
      const withoutContract = [...routes].filter((r) => !contract.has(r) && !NOT_IN_THE_CONTRACT.has(r))
      const withoutRoute = [...contract].filter((c) => !routes.has(c))
      expect(withoutContract).toEqual([])
      expect(withoutRoute).toEqual([])
      // The exceptions are still there (remove them here when they join the contract).
      for (const r of NOT_IN_THE_CONTRACT) expect(routes.has(r), r).toBe(true)
    } finally {
      await app.close()
    }
  })
})
