import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseSync } from '@swc/core'
import { describe, expect, it } from 'vitest'

/**
 * "Only repositories run SQL" (server/README.md, "The emulator"), checked on the syntax of every
 * module: outside `server/db/` and the `*-repository.ts` files, no module calls the driver's
 * database methods (`prepare`, `pragma`, `transaction`, `exec` with SQL text…), a statement's own
 * methods (`pluck`, `iterate`…), or writes SQL text (`SELECT … FROM`, `INSERT INTO`,
 * `UPDATE … SET`, `DELETE FROM`, `CREATE TABLE`…) in a string or a template. A statement's
 * `run`/`get`/`all` cannot be told from a Map's `get` by syntax; a statement is made only by
 * `prepare`, which is what is checked. Tests, test kits and test-support/ folders are exempt, as
 * in `.dependency-cruiser.cjs`, and so are the benchmarks (scripts/bench*), which time the driver
 * itself.
 */

const ROOT = join(import.meta.dirname, '..')
const SCANNED = ['server', 'shared', 'scripts', 'fixtures']
const MAY_RUN_SQL = [/^server\/db\//, /-repository\.ts$/]
const EXEMPT = [/\.test\.tsx?$/, /\/test-support\//, /-test-kit\.ts$/, /^scripts\/bench/]

/** Methods only a better-sqlite3 database or statement has (by name: nothing else here uses them). */
const DRIVER_METHODS = new Set([
  'prepare',
  'pragma',
  'transaction',
  'backup',
  'serialize',
  'loadExtension',
  'aggregate',
  'pluck',
  'iterate',
  'expand',
  'columns',
  'safeIntegers',
])

/** SQL text: a statement's opening words, in any case. */
const SQL_TEXT = [
  /\bSELECT\s[\s\S]*\bFROM\s/i,
  /\bINSERT\s+(OR\s+\w+\s+)?INTO\s/i,
  /\bUPDATE\s+("?\w+"?|\?|\s*\$\{)\s*SET\s/i,
  /\bDELETE\s+FROM\s/i,
  /\b(CREATE|DROP|ALTER)\s+(TABLE|INDEX|VIEW|TRIGGER)\b/i,
  /\bREPLACE\s+INTO\s/i,
  /^\s*(PRAGMA|BEGIN|COMMIT|ROLLBACK|SAVEPOINT|VACUUM)\b/,
]

interface Node {
  type?: string
  span?: { start: number }
  [key: string]: unknown
}

/** What in a module's source runs or writes SQL, each as `line: what`. */
function sqlUses(source: string, file = 'module.ts'): string[] {
  const module = parseSync(source, { syntax: 'typescript', tsx: file.endsWith('.tsx') }) as unknown as Node
  const bytes = Buffer.from(source)
  const base = module.span?.start ?? 1
  // swc's spans count UTF-8 bytes from the module's first byte, numbered `base`.
  const lineOf = (node: Node): number =>
    bytes
      .subarray(0, Math.max(0, (node.span?.start ?? base) - base))
      .toString()
      .split('\n').length
  const found: string[] = []
  const sqlIn = (text: string): boolean => SQL_TEXT.some((re) => re.test(text))

  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item)
      return
    }
    if (typeof value !== 'object' || value === null) return
    const node = value as Node
    if (node.type === 'StringLiteral' && typeof node.value === 'string' && sqlIn(node.value))
      found.push(`${lineOf(node)}: SQL text`)
    if (node.type === 'TemplateLiteral') {
      const quasis = node.quasis as { raw: string }[]
      if (sqlIn(quasis.map((q) => q.raw).join(' x '))) found.push(`${lineOf(node)}: SQL text`)
    }
    if (node.type === 'CallExpression') {
      const callee = node.callee as Node
      const property = callee.type === 'MemberExpression' ? (callee.property as Node) : null
      const name = property?.type === 'Identifier' ? (property.value as string) : null
      if (property && name && DRIVER_METHODS.has(name)) found.push(`${lineOf(property)}: .${name}()`)
      if (
        property &&
        name === 'exec' &&
        execsSql(callee.object as Node, node.arguments as { expression: Node }[])
      )
        found.push(`${lineOf(property)}: .exec()`)
    }
    for (const [key, child] of Object.entries(node)) if (key !== 'span') visit(child)
  }
  visit(module)
  return found.sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10))
}

/**
 * `exec` is also RegExp's: it counts as the database's unless called on a regular expression
 * with a value, that is when its receiver is named as a database (`db`, `this.db`, `database`)
 * or it is handed literal text.
 */
function execsSql(receiver: Node, args: { expression: Node }[]): boolean {
  if (receiver.type === 'RegExpLiteral' || receiver.type === 'NewExpression') return false
  const last =
    receiver.type === 'Identifier'
      ? (receiver.value as string)
      : receiver.type === 'MemberExpression' && (receiver.property as Node).type === 'Identifier'
        ? ((receiver.property as Node).value as string)
        : ''
  if (/(^db$|Db$|database)/i.test(last)) return true
  const first = args[0]?.expression
  return first?.type === 'StringLiteral' || first?.type === 'TemplateLiteral'
}

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sources(path)
    return /\.(ts|tsx|mts)$/.test(entry.name) ? [path] : []
  })
}

describe('only repositories run SQL', () => {
  it('finds the driver calls and SQL text it looks for, and leaves the rest', () => {
    expect(sqlUses("db.prepare('SELECT 1').get()")).toEqual(['1: .prepare()'])
    expect(sqlUses('this.db\n  .prepare<[number], Row>(q)\n  .pluck()')).toEqual([
      '2: .prepare()',
      '3: .pluck()',
    ])
    expect(sqlUses("const n = 1 // 中文\ndb.pragma('foreign_keys = ON')")).toEqual(['2: .pragma()'])
    expect(sqlUses('db.transaction(() => f()).immediate()')).toEqual(['1: .transaction()'])
    expect(sqlUses('this.db.exec(script)')).toEqual(['1: .exec()'])
    expect(sqlUses("conn.exec('VACUUM')")).toEqual(['1: .exec()', '1: SQL text'])
    expect(sqlUses("const q = 'select name from players where id = ?'")).toEqual(['1: SQL text'])
    expect(sqlUses('const q = `INSERT OR IGNORE INTO t (a) VALUES (?)`')).toEqual(['1: SQL text'])
    expect(sqlUses('const q = `UPDATE $' + '{table} SET a = ?`')).toEqual(['1: SQL text'])
    expect(sqlUses("const q = 'DELETE FROM sessions'")).toEqual(['1: SQL text'])
    expect(sqlUses("const q = 'CREATE TABLE t (a)'")).toEqual(['1: SQL text'])
    // Not SQL: regular expressions, maps, prose.
    expect(sqlUses("/^a(b)$/.exec(text)\nnew RegExp('x').exec(t)\npattern.exec(line)")).toEqual([])
    expect(sqlUses("cache.get(key)\nrows.all\nitems.run()\nconst m = 'select a game to play'")).toEqual([])
    expect(sqlUses("const m = '请选择要更新的设置'\nconst u = 'update the app'")).toEqual([])
  })

  it('no module outside server/db/ and *-repository.ts runs or writes SQL', () => {
    const offenders = SCANNED.flatMap(sources)
      .filter((file) => !MAY_RUN_SQL.some((re) => re.test(file)) && !EXEMPT.some((re) => re.test(file)))
      .flatMap((file) => sqlUses(readFileSync(join(ROOT, file), 'utf8'), file).map((use) => `${file}:${use}`))
    expect(offenders).toEqual([])
  })

  it('scans the modules it means to', () => {
    const files = SCANNED.flatMap(sources)
    expect(files).toContain('server/emulator/games/round-service.ts')
    expect(files).toContain('server/http/idempotency.ts')
    expect(files.length).toBeGreaterThan(200)
  })
})
