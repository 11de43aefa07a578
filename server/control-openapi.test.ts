import { Validator } from '@seriousme/openapi-schema-validator'
import { ADMIN_TOKEN } from '@server/fault/live-servers'
import { expectUnknownFieldsRefused } from '@server/test-support/strict-schemas'
import { createTestApp, type TestApp } from '@server/test-support/test-app'
import { pathParamNames } from '@shared/emu-contract/control-endpoint'
import { CONTROL_ENDPOINTS, CONTROL_OPENAPI_PATH } from '@shared/emu-contract/registry'
import { faultActionSchema } from '@shared/emu-control'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/** Every route the server answers, as `METHOD /path` (HEAD left out), read from Fastify's route tree. */
function registeredRoutes(app: FastifyInstance): string[] {
  const routes: string[] = []
  const stack: string[] = []
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^((?:│ {3}| {4})*)[├└]── (.*?) \(([^)]*)\)$/.exec(line)
    if (!m) continue
    stack.length = (m[1] ?? '').length / 4
    stack.push(m[2] ?? '')
    const path = stack.join('')
    for (const method of (m[3] ?? '').split(', ')) {
      if (method !== 'HEAD' && method !== '-') routes.push(`${method} ${path}`)
    }
  }
  return routes
}

/** The control routes a server answers, the document's own route left out. */
const controlRoutesOf = (app: FastifyInstance) =>
  registeredRoutes(app)
    .filter((r) => r.split(' ')[1]?.startsWith('/__emu/') && r !== `GET ${CONTROL_OPENAPI_PATH}`)
    .sort()

const CONTRACT_KEYS = CONTROL_ENDPOINTS.map((e) => `${e.method} ${e.path}`)

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t.close()
})

describe('the control contract', () => {
  it('has unique ids and routes, and a params field for each :name of a path', () => {
    expect(new Set(CONTRACT_KEYS).size).toBe(CONTRACT_KEYS.length)
    expect(new Set(CONTROL_ENDPOINTS.map((e) => e.id)).size).toBe(CONTROL_ENDPOINTS.length)
    for (const e of CONTROL_ENDPOINTS) {
      expect(Object.keys(e.params?.shape ?? {}).sort(), e.id).toEqual(pathParamNames(e.path).sort())
    }
  })

  it('refuses unknown fields in every query and body', () => {
    expectUnknownFieldsRefused(CONTROL_ENDPOINTS)
  })
})

describe('control routes and their contract', () => {
  it('emulator mode: every route under /__emu has a contract object, and every contract a route', () => {
    const routes = controlRoutesOf(t.app)
    expect(routes).toContain('GET /__emu/state')
    expect(routes).toEqual([...CONTRACT_KEYS].sort())
  })

  it('proxy mode: the routes are the contract’s, all but those that need the emulator', async () => {
    const proxy = await createTestApp({
      MODE: 'proxy',
      UPSTREAM_URL: 'http://127.0.0.1:9',
      EMU_ADMIN_TOKEN: ADMIN_TOKEN,
    })
    try {
      const routes = controlRoutesOf(proxy.app)
      for (const route of routes) expect(CONTRACT_KEYS, route).toContain(route)
      for (const e of CONTROL_ENDPOINTS.filter((c) => !c.emulatorOnly)) {
        expect(routes, e.id).toContain(`${e.method} ${e.path}`)
      }
      // Only what the emulator serves is missing.
      const missing = CONTROL_ENDPOINTS.filter((e) => !routes.includes(`${e.method} ${e.path}`))
      expect(missing.length).toBeGreaterThan(0)
      for (const e of missing) expect(e.emulatorOnly, e.id).toBe(true)
    } finally {
      await proxy.close()
    }
  })
})

describe(CONTROL_OPENAPI_PATH, () => {
  it('documents every control call, and only those, and passes a standard validator', async () => {
    const res = await t.app.inject({ url: CONTROL_OPENAPI_PATH })
    expect(res.statusCode).toBe(200)
    const doc = res.json() as { openapi: string; paths: Record<string, Record<string, unknown>> }
    expect(doc.openapi).toBe('3.1.0')
    const documented = Object.entries(doc.paths)
      .flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`))
      .sort()
    const routes = controlRoutesOf(t.app)
      .map((r) => r.replace(/:(\w+)/g, '{$1}'))
      .sort()
    expect(documented).toEqual(routes)
    const validator = new Validator()
    const result = await validator.validate(doc)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
  })

  it('shows every fault action a rule may have, the push channel’s too', async () => {
    const text = (await t.app.inject({ url: CONTROL_OPENAPI_PATH })).body
    const actions = faultActionSchema.options.map((o) => o.shape.type.value)
    expect(actions).toContain('streamSessionEnd')
    for (const action of actions) expect(text).toContain(`"const":"${action}"`)
  })

  it('is guarded like every /__emu call, and absent where the control API is', async () => {
    const guarded = await createTestApp({ EMU_ADMIN_TOKEN: ADMIN_TOKEN })
    try {
      expect((await guarded.app.inject({ url: CONTROL_OPENAPI_PATH })).statusCode).toBe(401)
      const right = await guarded.app.inject({
        url: CONTROL_OPENAPI_PATH,
        headers: { 'x-emu-admin-token': ADMIN_TOKEN },
      })
      expect(right.statusCode).toBe(200)
    } finally {
      await guarded.close()
    }
    const off = await createTestApp({
      MODE: 'proxy',
      UPSTREAM_URL: 'http://127.0.0.1:9',
      EMU_ADMIN_TOKEN: '',
    })
    try {
      expect((await off.app.inject({ url: CONTROL_OPENAPI_PATH })).statusCode).toBe(404)
    } finally {
      await off.close()
    }
  })
})
