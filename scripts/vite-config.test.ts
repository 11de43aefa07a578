import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { jsonSchemaStubSource } from '../vite.config'

const require = createRequire(import.meta.url)
const ZOD_CORE = join(dirname(require.resolve('zod/package.json')), 'v4/core')

/** Loads generated module source as an ES module. */
async function load(source: string): Promise<Record<string, unknown>> {
  return import(`data:text/javascript;base64,${Buffer.from(source).toString('base64')}`)
}

describe('the client build without zod JSON Schema', () => {
  for (const file of ['to-json-schema.js', 'json-schema-processors.js']) {
    it(`stands in for every export of zod's ${file}, each throwing when used`, async () => {
      const realSource = readFileSync(join(ZOD_CORE, file), 'utf8')
      const real = await import(join(ZOD_CORE, file))
      const stub = await load(jsonSchemaStubSource(realSource))
      expect(Object.keys(stub).sort()).toEqual(Object.keys(real).sort())
      for (const [name, value] of Object.entries(stub)) {
        expect(typeof value, name).toBe('function')
        const fn = value as () => unknown
        const call = name.startsWith('create') ? () => (fn() as () => unknown)() : () => fn()
        expect(call, name).toThrow(/not included in the client build/)
      }
    })
  }
})
