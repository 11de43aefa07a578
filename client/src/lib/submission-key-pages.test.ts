import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const SRC = join(import.meta.dirname, '..')

/** Every page or component that sends an Idempotency-Key (docs/client.md#submission-keys). */
const PAGES = [
  'features/wallet/top-up-page.tsx',
  'features/wallet/withdraw-page.tsx',
  'features/wallet/exchange-page.tsx',
  'features/protection/excluded-withdraw-page.tsx',
  'features/games/bet-bar.tsx',
  'features/games/test-bet-page.tsx',
  'features/agent/backwater-page.tsx',
]

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sources(path)
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : []
  })
}

const text = (file: string) => readFileSync(join(SRC, file), 'utf8')

describe('every form that sends an Idempotency-Key keeps the one rule', () => {
  it('the list above is every module that sends a key', () => {
    const senders = sources(SRC)
      .map((path) => relative(SRC, path))
      .filter((file) => /\bidempotencyKey\b/.test(text(file)))
      .filter((file) => file !== 'lib/http.ts' && file !== 'lib/submission-key.ts')
    expect(senders.sort()).toEqual([...PAGES].sort())
  })

  it('no module but the HTTP client and SubmissionKey makes a key', () => {
    const makers = sources(SRC)
      .map((path) => relative(SRC, path))
      .filter((file) => /\bnewIdempotencyKey\b/.test(text(file)))
    expect(makers.sort()).toEqual(['lib/http.ts', 'lib/submission-key.ts'])
  })

  it.each(PAGES)('%s takes each key from a SubmissionKey, per attempt', (file) => {
    const source = text(file)
    expect(source).toMatch(/new SubmissionKey\(\)/)
    // Every key it sends comes from the SubmissionKey: through send(), or keyFor() then settle().
    const sends = [...source.matchAll(/idempotencyKey(?::\s*([^,}\n]+))?/g)].map(
      (m) => m[1]?.trim() ?? 'shorthand',
    )
    expect(sends.length).toBeGreaterThan(0)
    for (const sent of sends) expect(sent).toMatch(/^(shorthand|idempotencyKey|key\.keyFor\(body\))$/)
    if (/key\.keyFor\(/.test(source)) expect(source).toMatch(/key\.settle\(err\)/)
    else expect(source).toMatch(/\.send\(/)
    // No key kept in a ref or state of its own.
    expect(source).not.toMatch(/useRef\(newIdempotencyKey|useState\(newIdempotencyKey/)
  })
})
