import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const SRC = join(import.meta.dirname, '../..')

/** Every page or component with a field where the player types an amount of money (docs/client.md#amounts). */
const AMOUNT_FIELDS = [
  'features/wallet/top-up-page.tsx',
  'features/wallet/withdraw-page.tsx',
  'features/wallet/exchange-page.tsx',
  'features/protection/excluded-withdraw-page.tsx',
  'features/protection/protection-page.tsx',
  'features/games/bet-board.tsx',
  'features/games/test-bet-page.tsx',
]

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sources(path)
    return /\.tsx$/.test(entry.name) && !/\.test\.tsx$/.test(entry.name) ? [path] : []
  })
}

const files = sources(SRC).map((path) => ({ file: relative(SRC, path), text: readFileSync(path, 'utf8') }))

describe('every amount field is the shared AmountInput', () => {
  it('no other component opens a decimal keyboard of its own', () => {
    const own = files.filter(({ text }) => /inputMode[=:]\s*["'{]*decimal/.test(text)).map(({ file }) => file)
    expect(own).toEqual(['components/amount-input/amount-input.tsx'])
  })

  it('the amount fields are the ones listed, and each uses AmountInput', () => {
    const users = files.filter(({ text }) => /<AmountInput\b/.test(text)).map(({ file }) => file)
    expect(users.sort()).toEqual([...AMOUNT_FIELDS].sort())
  })
})
