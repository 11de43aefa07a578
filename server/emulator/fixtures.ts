import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { z } from 'zod'

/** Reads and validates one fixture file; a bad fixture stops the start with the file and field named. */
export function loadFixture<T extends z.ZodType>(dir: string, file: string, schema: T): z.output<T> {
  const path = join(dir, file)
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'))
  } catch (err) {
    throw new Error(`fixture ${path}: ${(err as Error).message}`)
  }
  const parsed = schema.safeParse(raw)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`)
    throw new Error(`fixture ${path} is invalid:\n${lines.join('\n')}`)
  }
  return parsed.data
}
