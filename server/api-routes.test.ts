import { BYTES_ENDPOINTS, ENDPOINTS } from '@shared/contract/registry'
import { STREAM_ENDPOINTS } from '@shared/contract/stream'
import { describe, expect, it } from 'vitest'
import { buildApp } from './app'
import { testConfig } from './config'
import { buildOpenApi } from './openapi'

/**
 * Every /api route comes from a contract object, and every contract object has its route, as
 * control-openapi.test.ts checks for /__emu: the envelope endpoints (ENDPOINTS), those that
 * answer bytes (BYTES_ENDPOINTS) and the push channel (STREAM_ENDPOINTS). An endpoint written but left out of
 * shared/contract/registry.ts, or a route added by hand, fails here.
 */

const CONTRACT = [...ENDPOINTS, ...BYTES_ENDPOINTS, ...STREAM_ENDPOINTS]

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
      const contract = new Set(CONTRACT.map((e) => `${e.method} ${e.path}`))
      expect(contract.size).toBe(CONTRACT.length)
      expect([...routes].filter((r) => !contract.has(r))).toEqual([])
      expect([...contract].filter((c) => !routes.has(c))).toEqual([])
    } finally {
      await app.close()
    }
  })

  it('are each in the OpenAPI document once', () => {
    const doc = buildOpenApi(ENDPOINTS, 'test', BYTES_ENDPOINTS, STREAM_ENDPOINTS) as {
      paths: Record<string, Record<string, { operationId: string }>>
    }
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
    )
    const expected = CONTRACT.map((e) => `${e.method} ${e.path.replace(/:(\w+)/g, '{$1}')} ${e.id}`)
    expect(operations.sort()).toEqual(expected.sort())
  })
})
