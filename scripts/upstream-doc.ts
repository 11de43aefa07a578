import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import { WHEN_MISSING } from '@client/lib/when-missing'
import { LOADING_TOAST_AFTER_MS, REQUEST_TIMEOUT_MS, TOKEN_HEADER } from '@shared/constants'
import type { Endpoint } from '@shared/contract/endpoint'
import { ENDPOINTS } from '@shared/contract/registry'
import { CODE, SESSION_LOST_CODES, SUCCESS_CODES } from '@shared/envelope'
import { MSG } from '@shared/messages'
import type { z } from 'zod'
import { jsonSchema, requestSchema } from '../server/openapi'
import { ROOT_DIR } from '../server/paths'
import { type Step, walkPlan } from './upstream-conformance'

/**
 * docs/upstream.md, written from the contract (shared/contract/) and from where the client calls
 * each endpoint: what an operator's backend must answer for the app to work in proxy mode.
 * `npm run upstream:doc` writes it; upstream-doc.test.ts fails when the file is not what this
 * writes now.
 */

export const UPSTREAM_DOC_PATH = 'docs/upstream.md'

type Json = Record<string, unknown>

// ── field descriptions ───────────────────────────────────────────────────────────────────────────

/**
 * The meaning of a field: its `.describe()`/`.meta()` description, else the doc comment written on
 * its declaration in shared/contract/*.ts, taken only where the field's name is declared exactly
 * once across the contract (so the comment cannot belong to another field of that name).
 */
export function contractComments(root = ROOT_DIR): Map<string, string> {
  const dir = join(root, 'shared/contract')
  const texts = readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .sort()
    .map((f) => readFileSync(join(dir, f), 'utf8'))
  const declared = new Map<string, number>()
  const comments = new Map<string, string>()
  for (const text of texts) {
    const bare = text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\/\/.*$/gm, '')
    for (const m of bare.matchAll(/(?:^|[{,(])\s*([a-z_][a-z0-9_]*)\s*:(?!:)/gm)) {
      const key = m[1] ?? ''
      declared.set(key, (declared.get(key) ?? 0) + 1)
    }
    for (const m of text.matchAll(/\/\*\*([\s\S]*?)\*\/\s*\n\s*([a-z_][a-z0-9_]*)\s*:/g)) {
      const comment = (m[1] ?? '')
        .split('\n')
        .map((line) => line.replace(/^\s*\*\s?/, '').trim())
        .filter(Boolean)
        .join(' ')
      comments.set(m[2] ?? '', comment)
    }
  }
  return new Map([...comments].filter(([key]) => declared.get(key) === 1))
}

// ── where the client uses each endpoint ──────────────────────────────────────────────────────────

export interface PageRef {
  title: string
  path: string
}

export interface Usage {
  /** Client source file, from the repository root. */
  file: string
  /** The file is a page the router loads (a page may serve several routes). */
  page: PageRef[]
  /** Not a page: the pages that show it (through the files that import it). */
  shownOn: PageRef[]
  /** Part of the app shell, around every page. */
  shell: boolean
  /** The call is quiet: a failure hides or marks the section instead of a toast. */
  quiet: boolean
}

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) yield* sourceFiles(path)
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts')) yield path
  }
}

/** Page files the router loads, with their titles and paths (client/src/app/router.tsx). */
function routerPages(root: string): Map<string, PageRef[]> {
  const router = readFileSync(join(root, 'client/src/app/router.tsx'), 'utf8')
  const pathsText = readFileSync(join(root, 'client/src/config/paths.ts'), 'utf8')
  const pathOf = new Map([...pathsText.matchAll(/^\s+(\w+): '([^']+)',$/gm)].map((m) => [m[1], m[2]]))
  const pages = new Map<string, PageRef[]>()
  const add = (key: string, title: string, file: string) => {
    const path = pathOf.get(key)
    if (path)
      pages.set(`client/src/${file}.tsx`, [...(pages.get(`client/src/${file}.tsx`) ?? []), { title, path }])
  }
  const lazyPage =
    /page\(\s*paths\.(\w+),\s*\{ title: '([^']+)'[^}]*\},\s*\(\) =>\s*import\('\.\.\/([^']+)'\)/g
  for (const [, key = '', title = '', file = ''] of router.matchAll(lazyPage)) add(key, title, file)
  // Pages in the entry: imported by name and rendered as a route's element.
  const eager =
    /path: paths\.(\w+),\s*handle: \{ title: '([^']+)' \},\s*element: \(\s*<RouteBoundary>\s*<(\w+) \/>/g
  for (const [, key = '', title = '', component = ''] of router.matchAll(eager)) {
    const from = new RegExp(`import \\{ ${component} \\} from '\\.\\./([^']+)'`).exec(router)?.[1]
    if (from) add(key, title, from)
  }
  return pages
}

/** Client files by the files that import them (static and dynamic imports alike). */
function importers(root: string, files: readonly string[]): Map<string, Set<string>> {
  const known = new Set(files)
  const resolveSpec = (from: string, spec: string): string | undefined => {
    let base: string
    if (spec.startsWith('@client/')) base = join('client/src', spec.slice('@client/'.length))
    else if (spec.startsWith('.')) base = join(dirname(from), spec)
    else return undefined
    return [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')].find((f) =>
      known.has(f),
    )
  }
  const out = new Map<string, Set<string>>()
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8')
    for (const m of text.matchAll(/(?:from |import\()'([^']+)'/g)) {
      const target = resolveSpec(file, m[1] ?? '')
      if (target) out.set(target, (out.get(target) ?? new Set()).add(file))
    }
  }
  return out
}

const SHELL = 'client/src/app/root-route.tsx'

/** The pages a file is shown on, following importers up to the nearest pages; and whether the shell holds it. */
function placesOf(
  file: string,
  pages: Map<string, PageRef[]>,
  importedBy: Map<string, Set<string>>,
): { shownOn: PageRef[]; shell: boolean } {
  const seen = new Set([file])
  const queue = [file]
  const shownOn: PageRef[] = []
  let shell = false
  while (queue.length > 0) {
    const current = queue.shift() ?? ''
    for (const parent of [...(importedBy.get(current) ?? [])].sort()) {
      if (seen.has(parent)) continue
      seen.add(parent)
      const page = pages.get(parent)
      if (page) shownOn.push(...page)
      else if (parent === SHELL) shell = true
      else queue.push(parent)
    }
  }
  return { shownOn, shell }
}

/** The contract's names a client file imports as values: statically, or from a dynamic import. */
export function importedNames(text: string): Set<string> {
  const names = new Set<string>()
  const add = (list: string) => {
    for (const spec of list.split(',')) {
      const name =
        spec
          .trim()
          .split(/\s+as\s+/)[0]
          ?.trim() ?? ''
      if (name && !name.startsWith('type ')) names.add(name)
    }
  }
  for (const m of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'@shared\/contract\/[^']+'/g)) add(m[1] ?? '')
  if (text.includes("import('@shared/contract/")) {
    for (const m of text.matchAll(/\.then\(\(\{([^}]*)\}\)/g)) add(m[1] ?? '')
    for (const m of text.matchAll(/\(m\) => m\.(\w+)/g)) add(m[1] ?? '')
    for (const m of text.matchAll(/const \{([^}]*)\} = await \w+\(\)/g)) add(m[1] ?? '')
  }
  return names
}

/**
 * Which client files call each endpoint: a file that imports the endpoint (or its first-screen
 * route) from the contract as a value, not only as a type.
 */
export function clientUsage(endpoints: readonly Endpoint[], root = ROOT_DIR): Map<string, Usage[]> {
  const pages = routerPages(root)
  const files = [...sourceFiles(join(root, 'client/src'))].map((f) => relative(root, f))
  const importedBy = importers(root, files)
  const out = new Map<string, Usage[]>(endpoints.map((e) => [e.id, []]))
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8')
    if (!text.includes('@shared/contract/')) continue
    const names = importedNames(text)
    for (const e of endpoints) {
      if (!names.has(e.id) && !names.has(`${e.id}Route`)) continue
      const quiet =
        new RegExp(`useProtectionRead\\(\\s*${e.id}\\b`).test(text) ||
        // Up to the end of this call's statement, not into the next call's options.
        new RegExp(
          `call(?:Api|Route)\\(\\s*${e.id}(?:Route)?\\b(?:(?!call(?:Api|Route)\\()[^;])*quiet: true`,
        ).test(text)
      const page = pages.get(file)
      const places = page ? { shownOn: [], shell: false } : placesOf(file, pages, importedBy)
      out.get(e.id)?.push({ file, page: page ?? [], ...places, quiet })
    }
  }
  return out
}

// ── field tables ─────────────────────────────────────────────────────────────────────────────────

export interface FieldRow {
  path: string
  type: string
  required: boolean
  meaning: string
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ')
const code = (text: string) => `\`${text}\``

/** One JSON Schema as a short type: `string`, `integer ≥ 1`, `"a" \| "b"`, `array of object`, `T \| null`. */
export function typeText(schema: Json): string {
  const variants = (schema.anyOf ?? schema.oneOf) as Json[] | undefined
  if (variants) return variants.map(typeText).join(' | ')
  if ('const' in schema) return JSON.stringify(schema.const)
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ')
  const type = schema.type
  if (Array.isArray(type)) return type.join(' | ')
  const extra: string[] = []
  if (typeof schema.pattern === 'string') extra.push(`pattern ${code(schema.pattern)}`)
  if (typeof schema.format === 'string') extra.push(`format ${schema.format}`)
  // Zod writes the safe-integer bounds on every integer: they say nothing here.
  const bound = (v: unknown) =>
    v === Number.MAX_SAFE_INTEGER || v === Number.MIN_SAFE_INTEGER ? undefined : v
  const min = bound(schema.minimum) ?? schema.minLength ?? schema.minItems
  const max = bound(schema.maximum) ?? schema.maxLength ?? schema.maxItems
  if (min !== undefined && max !== undefined) extra.push(`${String(min)}–${String(max)}`)
  else if (min !== undefined) extra.push(`≥ ${String(min)}`)
  else if (max !== undefined) extra.push(`≤ ${String(max)}`)
  if (schema.exclusiveMinimum !== undefined) extra.push(`> ${String(schema.exclusiveMinimum)}`)
  let base: string
  if (type === 'array') {
    const items = (schema.items ?? {}) as Json
    base = `array of ${items.type === 'object' ? 'object' : typeText(items)}`
  } else if (type === 'object' && schema.additionalProperties && !schema.properties) {
    base = `object of ${typeText(schema.additionalProperties as Json)}`
  } else if (typeof type === 'string') base = type
  else base = 'any'
  return extra.length ? `${base} (${extra.join(', ')})` : base
}

/** The object inside a schema that may be nullable or an array, to descend into. */
function objectInside(schema: Json): { object: Json; suffix: string } | null {
  if (schema.type === 'object' && schema.properties) return { object: schema, suffix: '' }
  if (schema.type === 'array') {
    const inner = objectInside((schema.items ?? {}) as Json)
    return inner ? { object: inner.object, suffix: `[]${inner.suffix}` } : null
  }
  const variants = (schema.anyOf ?? schema.oneOf) as Json[] | undefined
  if (variants) {
    const objects = variants.filter((v) => v.type !== 'null')
    if (objects.length === 1 && objects[0]) return objectInside(objects[0])
  }
  return null
}

/** Every field of an object schema, nested ones as `a.b`, array items as `list[].x`. */
/** What a field means: its doc comment, then its schema description (e.g. "Unix time in milliseconds"). */
function meaning(schema: Json, name: string, comments: Map<string, string>): string {
  const variants = ((schema.anyOf ?? schema.oneOf ?? []) as Json[]).filter((v) => v.type !== 'null')
  const described = [schema, ...variants].find((v) => typeof v.description === 'string')?.description
  const parts = [comments.get(name), described as string | undefined]
  return [...new Set(parts.filter((p): p is string => Boolean(p)))]
    .map((p) => (/[.。!?)]$/.test(p) ? p : `${p}.`))
    .join(' ')
}

export function fieldRows(schema: Json, comments: Map<string, string>, prefix = ''): FieldRow[] {
  const properties = (schema.properties ?? {}) as Record<string, Json>
  const required = new Set((schema.required ?? []) as string[])
  const rows: FieldRow[] = []
  for (const [name, field] of Object.entries(properties)) {
    const path = `${prefix}${name}`
    rows.push({
      path,
      type: typeText(field),
      required: required.has(name),
      meaning: meaning(field, name, comments),
    })
    const inner = objectInside(field)
    if (inner) rows.push(...fieldRows(inner.object, comments, `${path}${inner.suffix}.`))
  }
  return rows
}

/** The shapes a body may take: one, or each branch of a union of objects. */
function shapes(schema: Json): Json[] {
  const variants = (schema.anyOf ?? schema.oneOf) as Json[] | undefined
  if (variants) return variants.filter((v) => v.type !== 'null').flatMap(shapes)
  return schema.type === 'object' ? [schema] : []
}

function table(header: string[], rows: string[][]): string[] {
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
  ]
}

function requestSection(e: Endpoint, comments: Map<string, string>): string[] {
  const rows: string[][] = []
  if (e.query) {
    for (const [name, field] of Object.entries(e.query.shape as Record<string, z.ZodType>)) {
      const schema = requestSchema(field)

      rows.push([
        code(name),
        'query',
        typeText(schema),
        field.safeParse(undefined).success ? 'no' : 'yes',
        meaning(schema, name, comments),
      ])
    }
  }
  const out: string[] = []
  if (!e.body) {
    if (rows.length === 0) return ['Request: no query and no body.', '']
    return ['Request:', '', ...table(['field', 'in', 'type', 'required', 'meaning'], rows), '']
  }
  const body = shapes(requestSchema(e.body))
  const where = `body (${e.encoding ?? 'urlencoded'})`
  if (body.length <= 1) {
    for (const row of fieldRows(body[0] ?? {}, comments)) {
      rows.push([code(row.path), where, row.type, row.required ? 'yes' : 'no', row.meaning])
    }
    if (rows.length === 0) return ['Request: no query; the body, if any, carries no fields.', '']
    return ['Request:', '', ...table(['field', 'in', 'type', 'required', 'meaning'], rows), '']
  }
  if (rows.length > 0)
    out.push('Request query:', '', ...table(['field', 'in', 'type', 'required', 'meaning'], rows), '')
  out.push(`Request body (${e.encoding ?? 'urlencoded'}), one of ${body.length} shapes:`, '')
  body.forEach((shape, i) => {
    out.push(`Shape ${i + 1}:`, '')
    const shapeRows = fieldRows(shape, comments).map((r) => [
      code(r.path),
      'body',
      r.type,
      r.required ? 'yes' : 'no',
      r.meaning,
    ])
    out.push(...table(['field', 'in', 'type', 'required', 'meaning'], shapeRows), '')
  })
  return out
}

function answerSection(e: Endpoint, comments: Map<string, string>): string[] {
  const schema = jsonSchema(e.data, 'output')
  if (schema.type === 'null') return ['Answer: `data` is `null`.', '']
  const rows = fieldRows(schema, comments).map((r) => [
    code(r.path),
    r.type,
    r.required ? 'yes' : 'no',
    r.meaning,
  ])
  if (rows.length === 0) return [`Answer: \`data\` is ${typeText(schema)}.`, '']
  return ['Answer (`data`):', '', ...table(['field', 'type', 'always there', 'meaning'], rows), '']
}

const provenance = (e: Endpoint): string =>
  e.source === 'ours'
    ? 'ours: the upstream documentation has no such endpoint; path and fields are our design'
    : e.fields === 'spec'
      ? 'spec: the path and its fields are the upstream documentation’s'
      : 'spec path, our fields: the upstream documentation gives the path only; the fields are our design'

function usageLines(uses: readonly Usage[]): string[] {
  if (uses.length === 0) return ['Used by: no client code calls it.']
  return [
    'Used by:',
    ...uses.map((u) => {
      const list = (refs: PageRef[]) => refs.map((p) => `${p.title} (${code(p.path)})`).join(', ')
      const where =
        u.page.length > 0
          ? ` — page ${list(u.page)}`
          : u.shownOn.length > 0
            ? ` — on page ${list(u.shownOn)}${u.shell ? ', and around every page' : ''}`
            : u.shell
              ? ' — around every page (the app shell)'
              : ''
      const quiet = u.quiet
        ? '; called quietly: a failure hides or marks that part of the page, no toast'
        : ''
      return `- ${code(u.file)}${where}${quiet}`
    }),
  ]
}

/** How `npm run upstream:check` treats the endpoint (scripts/upstream-conformance.ts). */
function checkLine(steps: readonly Step[]): string {
  const kinds = new Set(steps.map((s) => s.kind))
  const first = steps[0]
  if (!first) return '- `upstream:check`: not in its walk'
  if (kinds.has('login')) return `- \`upstream:check\`: calls it first (${first.note})`
  if (kinds.has('read')) return '- `upstream:check`: reads it'
  if (kinds.has('never')) return `- \`upstream:check\`: never calls it: ${first.note}`
  return `- \`upstream:check\`: calls it only with \`--allow-writes\`: ${first.note}`
}

/**
 * What the app does when the server does not offer the endpoint (client/src/lib/when-missing.ts),
 * for an endpoint whose fields are ours.
 */
function missingLines(e: Endpoint, whenMissing: Readonly<Record<string, string>>): string[] {
  const text = whenMissing[e.id]
  if (e.fields !== 'ours' || !text) return []
  const signs =
    e.method === 'GET'
      ? 'HTTP 404, 405 or 501, code 40500, an unknown code'
      : 'HTTP 404, 405 or 501, code 40500'
  return ['', `When the upstream does not offer it (${signs}): ${text}.`]
}

function endpointSection(
  e: Endpoint,
  comments: Map<string, string>,
  uses: readonly Usage[],
  steps: readonly Step[],
  whenMissing: Readonly<Record<string, string>> = WHEN_MISSING,
): string[] {
  const facts = [
    `- ${provenance(e)}`,
    `- session: ${e.auth ? `needed (the \`${TOKEN_HEADER}\` header); without a live one the answer is code ${CODE.sessionExpired}` : 'not needed'}`,
    ...(e.method === 'GET' ? [] : [`- body encoding: ${e.encoding ?? 'urlencoded'}`]),
    ...(e.idempotent
      ? ['- idempotent: accepts an `Idempotency-Key` header; a retry with the same key gets the first answer']
      : []),
    ...(e.loadingToast === false ? ['- the app shows no loading toast for it'] : []),
    checkLine(steps),
  ]
  return [
    `### ${e.method} ${e.path}`,
    '',
    `${code(e.id)}: ${e.summary}.`.replace(/\.\.$/, '.'),
    '',
    ...facts,
    '',
    ...requestSection(e, comments),
    ...answerSection(e, comments),
    ...usageLines(uses),
    ...missingLines(e, whenMissing),
    '',
  ]
}

// ── the document ─────────────────────────────────────────────────────────────────────────────────

const CODE_MEANING: Record<keyof typeof CODE, string> = {
  ok: 'success (most endpoints)',
  okAlt: 'success (some endpoints)',
  sessionExpired: 'the session is gone: the app clears the login and goes to `/login?isreg=0`',
  sessionUnauthorized: 'also a lost session when it comes in the body',
  failed: 'a refusal of the service (e.g. a business rule)',
  invalidInput: 'input refused: `msg` names each bad field',
  payloadTooLarge: 'the body is too large',
  rateLimited: 'too many calls from this client address',
  crossSite: 'a write sent by a page on another site',
  notFound: 'something the call names does not exist, or no such endpoint',
  methodNotAllowed: 'a wrong method on a known path',
  conflict: 'a conflict, e.g. an Idempotency-Key still in flight or reused for another request',
  internal: 'a server failure; in proxy mode also an upstream that failed or timed out',
  badUpstream:
    'proxy mode: the upstream’s answer differed from this contract and was refused (`UPSTREAM_NONCONFORMING=refuse`); the app shows the message',
  unavailable: 'the server is shedding load or stopping: try again after `Retry-After`',
}

function header(endpoints: readonly Endpoint[]): string[] {
  const ours = endpoints.filter((e) => e.source === 'ours').length
  const specPathsOurFields = endpoints.filter((e) => e.source === 'spec' && e.fields === 'ours').length
  const specFields = endpoints.filter((e) => e.fields === 'spec').length
  return [
    '# The upstream contract',
    '',
    '<!-- Generated by `npm run upstream:doc` from shared/contract/ and the client source; do not edit by hand. -->',
    '',
    'What an operator’s backend must answer for the app to work when the server runs in proxy mode',
    '(`MODE=proxy`, `/api` forwarded to `UPSTREAM_URL`). It is written from the contract in',
    '`shared/contract/` — the same objects the emulator serves, the client parses with and `/api-docs`',
    'shows as OpenAPI — so it is true of the code it was generated from. The server serves it at',
    '`GET /api-docs/upstream.md`. `npm run upstream:check -- --url URL --phone P --password W` calls a live',
    'upstream and reports every field that differs from what is written here.',
    '',
    `There are ${endpoints.length} endpoints. ${specFields} carries fields as the upstream documentation`,
    `gives them; ${specPathsOurFields} are paths the upstream documents without fields, whose fields are`,
    `our design; ${ours} are endpoints of our own that the upstream documentation leaves out. Where the`,
    'fields are ours, an upstream that names or types them differently needs an adapter between the two.',
    '',
  ]
}

function callsSection(): string[] {
  return [
    '## Calls',
    '',
    `- Every call goes under \`/api\`, with a ${REQUEST_TIMEOUT_MS} ms time-out; when the player is logged in`,
    `  the session token travels in the \`${TOKEN_HEADER}\` header. A loading toast appears after ${LOADING_TOAST_AFTER_MS} ms`,
    '  unless the endpoint says otherwise.',
    '- Query values travel as text. Bodies are `application/x-www-form-urlencoded` unless the endpoint',
    '  says `multipart` (`multipart/form-data`) or `json` (`application/json`).',
    '- Amounts are decimal strings such as `"12.50"`; times are Unix milliseconds.',
    '- Money-moving POSTs marked idempotent accept an `Idempotency-Key` header: a retry with the same',
    '  key must get the first answer and move money once.',
    '- See [docs/product.md](product.md#calls) for the client side.',
    '',
  ]
}

function envelopeSection(): string[] {
  const rows = (Object.keys(CODE) as (keyof typeof CODE)[]).map((key) => [
    code(String(CODE[key])),
    code(key),
    CODE_MEANING[key],
  ])
  return [
    '## The envelope and codes',
    '',
    'Every answer under `/api` is a JSON object `{ code, msg, data }` (`message` is read when `msg` is',
    `missing). Success is code ${SUCCESS_CODES.join(' or ')}, with \`data\` as the endpoint's answer below.`,
    `Codes ${SESSION_LOST_CODES.join(' and ')} mean the session is gone. Any other code is a refusal: the app`,
    'shows its `message`, else its `msg`; `data` is `null`. The codes this server uses (`shared/envelope-plain.ts`):',
    '',
    ...table(['code', 'name', 'meaning'], rows),
    '',
    'An upstream may refuse a write with a code of its own: it is a refusal, and its message is shown. A',
    'read answered HTTP 2xx with a code the app does not know reads as “this server does not offer the',
    'endpoint” (see below), so a read’s refusals should use code 0 or a code of this table; with an HTTP',
    'failure status (a 503 carrying code 503) any code is a refusal whose message is shown.',
    '',
  ]
}

function missingSection(): string[] {
  return [
    '## When an endpoint is missing or refused',
    '',
    'How the app reads an answer (`client/src/lib/http.ts`), in order:',
    '',
    `1. HTTP status 401, whatever the body: the session is lost — toast ${MSG.sessionExpired}, the login is cleared and`,
    '   the app goes to `/login?isreg=0`, coming back to the page afterwards.',
    `2. A body that is not a JSON envelope: with a 2xx status, ${MSG.requestFailed}（响应格式错误）; otherwise`,
    `   ${MSG.requestFailed}（HTTP <status>）.`,
    `3. Body code ${SESSION_LOST_CODES.join(' or ')}: the session is lost, as in 1, with the answer's message.`,
    `4. Any other code that is not ${SUCCESS_CODES.join(' or ')}: the answer's \`message\`, else \`msg\`, else ${MSG.requestFailed}; the call fails.`,
    `5. A success code with a non-2xx status: the answer's message, else ${MSG.requestFailed}（HTTP <status>）.`,
    `6. A success whose \`data\` does not match the endpoint's schema below: ${MSG.requestFailed}（响应格式错误）,`,
    '   and the mismatch is logged in the browser console.',
    '',
    `No answer within ${REQUEST_TIMEOUT_MS} ms: ${MSG.timeout}. No connection: ${MSG.network}, and an offline banner`,
    'until the server answers again. A GET answered 503 is tried once more after a short pause.',
    '',
    'Every failure is then read one way (`client/src/lib/endpoint-status.ts`), the same for every page:',
    '',
    '- **The server does not offer the endpoint**: HTTP 404, 405 or 501 whatever the body, code 40500 in',
    '  the body, a code the app does not know in an HTTP 2xx answer to a read, or an answer of another',
    '  shape (6). This is',
    '  what an upstream without one of our endpoints gives. A read shows no toast: the page hides the',
    `  section that needs it or says so in its place (${MSG.unsupported}。 or words of its own), and does`,
    `  not ask again (no polling, no retry button). A write says ${MSG.unsupported} in a toast instead of`,
    '  the server’s words or an HTTP status (an answer of another shape keeps 请求失败（响应格式错误）: the write',
    '  may have done its work), and the form stays as it was.',
    '- **A refusal**: a code of the table above (code 40400 in a 2xx is “what the call names does not exist”),',
    '  or a code of the upstream’s own to a write or with an HTTP failure status. Its message is shown, as',
    '  in 4; a',
    '  protection refusal in its dialog (docs/client.md#refusals).',
    `- **The call did not get through**: no connection, a time-out, or an HTTP failure without an envelope (a 502`,
    `  page): ${MSG.network} or ${MSG.timeout}, and polling goes on.`,
    '',
    'After a refusal or a call that did not get through, a read keeps the page’s own error state (most',
    'offer 重试); only a missing endpoint hides or explains.',
    '',
    'Some calls are quiet: their failure shows no toast whatever it is, and the page hides what it cannot',
    'show (the player-protection sections, the probes for password recovery, the house edges on 负责任博彩).',
    'Under each endpoint below, “When the upstream does not offer it” says what the player then sees,',
    'page by page (`client/src/lib/when-missing.ts`); `e2e/missing-endpoints.spec.ts` checks the pages.',
    '',
  ]
}

function checkSection(): string[] {
  return [
    '## Checking an upstream',
    '',
    '```sh',
    'npm run upstream:check -- --url https://upstream.example --phone 13800138000 --password secret',
    'npm run upstream:check -- --url https://upstream.example --phone P --password W --pay-password 123456 --allow-writes --json',
    '```',
    '',
    'The check logs in with the test account, then reads every endpoint it can with plausible query',
    'values (ids and round numbers taken from earlier answers), and parses each answer as the app does:',
    'the HTTP status, the envelope, then `data` with the endpoint’s schema. It prints one line per endpoint',
    '(answered or not, the HTTP status and code, whether it conforms) and under it each mismatch: the',
    'field’s path, what the contract expects and what came. Fields the contract does not have are listed',
    'but do not fail the check (the app ignores them). `--json` prints the same for CI; the exit status is 0',
    'only when every call made conforms.',
    '',
    'Writes are called only with `--allow-writes`, and only those that are harmless on a test account or',
    'undone straight after (a bound address is deleted, a changed setting set back); the ones that need',
    'the payment password also need `--pay-password`. Endpoints that move money, create what cannot be',
    'removed or lock the account are never called; each endpoint below says how the check treats it.',
    '`--adapter FILE` reads the adapter file proxy mode reads (`UPSTREAM_ADAPTER`, JSON or YAML,',
    '[docs/upstream-adapter.md](upstream-adapter.md)): calls go out in the upstream’s shape and answers are',
    'translated back before they are judged. `--adapter FILE` alone, without `--url`, only checks the file',
    'and names the line of each mistake.',
    '',
  ]
}

function indexSection(endpoints: readonly Endpoint[]): string[] {
  const anchor = (e: Endpoint) =>
    `${e.method} ${e.path}`
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s-]/gu, '')
      .replace(/\s/g, '-')
  const rows = endpoints.map((e) => [
    `[${e.method} ${e.path}](#${anchor(e)})`,
    code(e.id),
    e.source,
    e.fields,
    e.auth ? 'yes' : 'no',
  ])
  return ['## Endpoints', '', ...table(['call', 'id', 'endpoint', 'fields', 'session'], rows), '']
}

/** The whole of docs/upstream.md. */
export function renderUpstreamDoc(endpoints: readonly Endpoint[] = ENDPOINTS, root = ROOT_DIR): string {
  const comments = contractComments(root)
  const usage = clientUsage(endpoints, root)
  const plan = walkPlan()
  const lines = [
    ...header(endpoints),
    ...callsSection(),
    ...envelopeSection(),
    ...missingSection(),
    ...checkSection(),
    ...indexSection(endpoints),
    ...endpoints.flatMap((e) =>
      endpointSection(
        e,
        comments,
        usage.get(e.id) ?? [],
        plan.filter((s) => s.endpoint.id === e.id),
      ),
    ),
  ]
  return `${lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`
}

/**
 * The document as the repository keeps it: laid out by the project's formatter (Biome pads the
 * Markdown tables), so `biome check` and the freshness test agree on one text.
 */
export function upstreamDocText(root = ROOT_DIR): string {
  const biome = join(root, 'node_modules/.bin/biome')
  const run = spawnSync(biome, ['format', `--stdin-file-path=${UPSTREAM_DOC_PATH}`], {
    cwd: root,
    input: renderUpstreamDoc(ENDPOINTS, root),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
  if (run.status !== 0) throw new Error(`biome format failed: ${run.stderr || run.error?.message}`)
  return run.stdout
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(join(ROOT_DIR, UPSTREAM_DOC_PATH), upstreamDocText())
  console.log(`written: ${UPSTREAM_DOC_PATH}`)
}
