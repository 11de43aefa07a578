import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve, sep } from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * Client code is sliced by feature, and a feature does not import another feature: pages compose
 * them, and what two features share lives outside client/src/features. Nor does the client import
 * the server.
 */

const FEATURES = resolve(import.meta.dirname)
const CLIENT = resolve(FEATURES, '..')
const IMPORT = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.(ts|tsx)$/.test(name) ? [path] : []
  })
}

/** tsconfig.json's path aliases, as folders. */
const ROOT = resolve(CLIENT, '..', '..')
const ALIASES: Record<string, string> = {
  '@client/': resolve(ROOT, 'client', 'src'),
  '@server/': resolve(ROOT, 'server'),
  '@shared/': resolve(ROOT, 'shared'),
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  return [...text.matchAll(IMPORT)].flatMap((m) => {
    const spec = m[1] ?? m[2] ?? ''
    if (spec.startsWith('.')) return [resolve(file, '..', spec)]
    const alias = Object.keys(ALIASES).find((a) => spec.startsWith(a))
    return alias ? [resolve(ALIASES[alias] ?? '', spec.slice(alias.length))] : []
  })
}

const featureOf = (path: string): string | undefined => {
  const rel = relative(FEATURES, path)
  return rel.startsWith('..') ? undefined : rel.split(sep)[0]
}

describe('client import boundaries', () => {
  it('no feature imports another feature', () => {
    const crossings = sourceFiles(FEATURES).flatMap((file) => {
      const own = featureOf(file)
      return importsOf(file)
        .filter((target) => {
          const other = featureOf(target)
          return other !== undefined && other !== own
        })
        .map((target) => `${relative(CLIENT, file)} → ${relative(CLIENT, target)}`)
    })
    expect(crossings).toEqual([])
  })

  it('the client never imports the server', () => {
    const server = resolve(CLIENT, '..', '..', 'server')
    const offending = sourceFiles(CLIENT)
      .filter((file) => !file.endsWith('.test.ts') && !file.endsWith('.test.tsx'))
      .flatMap((file) =>
        importsOf(file)
          .filter((target) => target.startsWith(server + sep))
          .map(() => relative(CLIENT, file)),
      )
    expect(offending).toEqual([])
  })
})
