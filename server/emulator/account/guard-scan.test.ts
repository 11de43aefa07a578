import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const SERVER = join(import.meta.dirname, '..', '..')

/** The only modules that may compare a password with its hash: the function itself and the guard. */
const ALLOWED = new Set(['emulator/account/passwords.ts', 'emulator/account/password-guard.ts'])

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sources(path)
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : []
  })
}

/** What in a module compares a password hash: the verify function, or argon2's own `verify`. */
function hashComparisons(text: string): string[] {
  const found: string[] = []
  if (/\bverifyPassword\b/.test(text)) found.push('verifyPassword')
  if (/from\s+['"]@node-rs\/argon2['"]/.test(text) && /\bverify\b/.test(text)) found.push('argon2 verify')
  if (/require\(\s*['"]@node-rs\/argon2['"]\s*\)|import\(\s*['"]@node-rs\/argon2['"]\s*\)/.test(text))
    found.push('argon2 loaded at run time')
  return found
}

describe('every password check goes through the counted guard', () => {
  it('finds the hash comparison it looks for', () => {
    expect(hashComparisons("import { verifyPassword } from '../account/passwords'")).toEqual([
      'verifyPassword',
    ])
    expect(hashComparisons("import { verify } from '@node-rs/argon2'\nawait verify(h, p)")).toEqual([
      'argon2 verify',
    ])
    expect(hashComparisons("import { hashPassword } from './passwords'")).toEqual([])
  })

  it('no server module but the guard compares a password hash', () => {
    const offenders = sources(SERVER)
      .map((path) => ({ file: relative(SERVER, path), found: hashComparisons(readFileSync(path, 'utf8')) }))
      .filter(({ file, found }) => found.length > 0 && !ALLOWED.has(file))
    expect(offenders).toEqual([])
  })
})
