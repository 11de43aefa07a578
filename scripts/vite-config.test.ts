import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { inlineRuntimeImport, jsonSchemaStubSource } from '../vite.config'

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

describe("the entry's own copy of the bundler's runtime", () => {
  // Shaped as Rolldown writes them, minified: top-level names that the entry uses too.
  const runtime =
    'var e=Object.defineProperty,t=(n)=>({wrapped:n}),n=(r)=>e({},`x`,{value:r,enumerable:!0});export{n as a,t};'
  const entry = [
    'const __vite__mapDeps=(i)=>i;',
    'import{a as e,t as n}from"./rolldown-runtime-AbC1.js";',
    'var t=1;export const out=[e(t).x,n(2).wrapped,typeof __vite__mapDeps];',
  ].join('')

  it('runs the entry with the helpers and without importing the runtime chunk', async () => {
    const inlined = inlineRuntimeImport(entry, 'assets/rolldown-runtime-AbC1.js', runtime)
    expect(inlined).not.toContain('rolldown-runtime')
    expect((await load(inlined)).out).toEqual([1, 2, 'function'])
  })

  it('fails the build when either side is not in the shape it knows', () => {
    expect(() => inlineRuntimeImport(entry, 'assets/other-runtime.js', runtime)).toThrow(/known shape/)
    expect(() => inlineRuntimeImport(entry, 'assets/rolldown-runtime-AbC1.js', 'export default 1;')).toThrow(
      /known shape/,
    )
  })
})
