import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT_DIR } from '../server/paths'

/**
 * Code cites the project's own docs (`docs/product.md#calls`): every cited page exists and every
 * cited section is one of its headings, so a renamed heading cannot leave citations pointing nowhere.
 */

const SOURCE_DIRS = ['client/src', 'server', 'shared', 'scripts', 'e2e', 'fixtures']
const SOURCE = /\.(ts|tsx|json|css)$/
const CITATION = /(?<![\w/.])docs\/([a-z0-9-]+\.md)(?:#([a-z0-9-]+))?/g

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue
    const path = join(dir, name)
    if (statSync(path).isDirectory()) yield* files(path)
    else if (SOURCE.test(name)) yield path
  }
}

/** GitHub's anchors: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-')

function anchorsOf(page: string): Set<string> | null {
  let text: string
  try {
    text = readFileSync(join(ROOT_DIR, 'docs', page), 'utf8')
  } catch {
    return null
  }
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1] ?? '')))
}

describe('citations of docs/', () => {
  it('point at pages and sections that exist', () => {
    const pages = new Map<string, Set<string> | null>()
    const broken: string[] = []
    let seen = 0
    for (const dir of SOURCE_DIRS) {
      for (const file of files(join(ROOT_DIR, dir))) {
        const text = readFileSync(file, 'utf8')
        for (const [cited, page = '', anchor] of text.matchAll(CITATION)) {
          seen++
          if (!pages.has(page)) pages.set(page, anchorsOf(page))
          const anchors = pages.get(page)
          if (!anchors || (anchor !== undefined && !anchors.has(anchor))) {
            broken.push(`${relative(ROOT_DIR, file)}: ${cited}`)
          }
        }
      }
    }
    expect(seen).toBeGreaterThan(20)
    expect(broken).toEqual([])
  })
})
