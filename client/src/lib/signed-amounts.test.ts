import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { expect, it } from 'vitest'

const SRC = join(import.meta.dirname, '..')

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sources(path)
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : []
  })
}

it('no module but lib/format.ts writes the sign of an amount (signedAmount, docs/client.md#amounts)', () => {
  const signers = sources(SRC)
    .filter((path) => /`\+\$\{/.test(readFileSync(path, 'utf8')))
    .map((path) => relative(SRC, path))
  expect(signers).toEqual(['lib/format.ts'])
})
