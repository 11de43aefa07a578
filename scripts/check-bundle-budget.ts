/**
 * Checks the JavaScript and CSS that the home route (/home) loads before it can render against the
 * budget, gzipped: what index.html loads (entry script, modulepreloads, stylesheets), everything the
 * entry imports statically, and the lazy route modules /home renders at once (the layout and the home
 * page) with their static imports and CSS, unless the build merged them into the entry chunk (it
 * records which modules each entry chunk holds in dist/.vite/entry-modules.json). Prints a table;
 * exits 1 above the budget.
 *
 *   tsx scripts/check-bundle-budget.ts [dist] [--route <pattern>]...
 *
 * The chunk graph comes from Vite's manifest (`build.manifest: true` → dist/.vite/manifest.json).
 * Without one it falls back to following the static `import` statements of the built files, which
 * finds the same JavaScript but neither the lazy route modules nor their CSS.
 */
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join, posix, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync, constants as zlibConstants } from 'node:zlib'
import { z } from 'zod'

/**
 * The first screen measured 150.7 KB before zod's JSON Schema code left the client build (145.7 KB
 * after), and 149.6 KB before it stopped loading zod and the contract's schemas (121.6 KB), antd-mobile's
 * legacy render (118.8 KB) and the data router (101.9 KB); the home page's announcements line, the
 * largest text of the first screen, is drawn by the entry again (102.6 KB) rather than by a lazily
 * loaded chunk (docs/client.md#the-first-screen). The entry grew since by the classifier that tells
 * a missing endpoint from a refusal (lib/endpoint-status.ts), which the first screen's own calls
 * need, and by the shared formatters (the one China Standard Time formatter, the one mask): 105.3 KB.
 * The push channel's code is not in it (main.tsx loads it after the first screen). The budget keeps
 * that with a little room.
 * React DOM (62 KB) is most of what is left, then the declarative router (15 KB) and SWR.
 */
export const JS_BUDGET_GZIP_BYTES = 107 * 1024
export const CSS_BUDGET_GZIP_BYTES = 30 * 1024

/**
 * Manifest keys (source paths relative to the client root) of the modules that /home renders on
 * first load: the tab-bar layout and the home page. The router imports them statically, so they are
 * normally in the entry chunk; should they become lazy modules again, they are counted as such. A
 * pattern that matches neither fails the check, so that a renamed module cannot quietly drop out.
 */
export const HOME_ROUTE_MODULES: readonly RegExp[] = [
  /(^|\/)app\/layout\/app-layout\.tsx$/,
  /(^|\/)features\/home\/home-page\.tsx$/,
]

export const MANIFEST_PATH = '.vite/manifest.json'
/** Written by the build (vite.config.ts): the app's own modules in each entry chunk. */
export const ENTRY_MODULES_PATH = '.vite/entry-modules.json'

const chunkSchema = z.object({
  file: z.string(),
  src: z.string().optional(),
  isEntry: z.boolean().optional(),
  isDynamicEntry: z.boolean().optional(),
  imports: z.array(z.string()).optional(),
  dynamicImports: z.array(z.string()).optional(),
  css: z.array(z.string()).optional(),
})
export const manifestSchema = z.record(z.string(), chunkSchema)
export type Manifest = z.infer<typeof manifestSchema>

export interface HtmlAssets {
  /** `<script type="module" src>` */
  entryScripts: string[]
  /** `<link rel="modulepreload" href>` */
  modulePreloads: string[]
  /** `<link rel="stylesheet" href>` */
  stylesheets: string[]
}

function attributes(tag: string): Map<string, string> {
  const attrs = new Map<string, string>()
  const body = tag.replace(/^<\w+/, '').replace(/\/?>$/, '')
  for (const m of body.matchAll(/([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
    const name = m[1]
    if (name) attrs.set(name.toLowerCase(), m[2] ?? m[3] ?? m[4] ?? '')
  }
  return attrs
}

export function parseIndexHtml(html: string): HtmlAssets {
  const withoutComments = html.replace(/<!--[\s\S]*?-->/g, '')
  const out: HtmlAssets = { entryScripts: [], modulePreloads: [], stylesheets: [] }
  for (const [tag] of withoutComments.matchAll(/<script\b[^>]*>/gi)) {
    const a = attributes(tag)
    const src = a.get('src')
    if (src && a.get('type') === 'module') out.entryScripts.push(src)
  }
  for (const [tag] of withoutComments.matchAll(/<link\b[^>]*>/gi)) {
    const a = attributes(tag)
    const href = a.get('href')
    const rel = (a.get('rel') ?? '').toLowerCase().split(/\s+/)
    if (!href) continue
    if (rel.includes('modulepreload')) out.modulePreloads.push(href)
    else if (rel.includes('stylesheet')) out.stylesheets.push(href)
  }
  return out
}

/** A URL from index.html as a path inside dist (`/assets/a.js`, `./assets/a.js` → `assets/a.js`); null when external. */
export function distPathOf(url: string): string | null {
  if (/^([a-z][a-z0-9+.-]*:)?\/\//i.test(url) || url.startsWith('data:')) return null
  const path = url.split(/[?#]/)[0] ?? ''
  return posix.normalize(path.replace(/^\/+/, '')).replace(/^(\.\/)+/, '')
}

/** Static `import`/`export … from` specifiers of a built ES module (not `import()`, not `import.meta`). */
export function staticImportsOf(code: string): string[] {
  const specs = new Set<string>()
  const re = /(?:^|[;}\s)])(?:import|export)\s*(?:[\w$*{}\s,]*?\s*from\s*)?["']([^"']+)["']/g
  for (const m of code.matchAll(re)) if (m[1]) specs.add(m[1])
  return [...specs]
}

export interface InitialAssets {
  js: string[]
  css: string[]
  /** Things a reader of the output should know (fallbacks, external files). */
  notes: string[]
  /** Route-module patterns that matched no lazy module of the manifest. */
  unmatchedRoutes: string[]
}

/** Walks the manifest from the given keys along static imports, collecting JS files and their CSS. */
export function collectFromManifest(
  manifest: Manifest,
  startKeys: string[],
): { js: string[]; css: string[] } {
  const js = new Set<string>()
  const css = new Set<string>()
  const seen = new Set<string>()
  const visit = (key: string) => {
    if (seen.has(key)) return
    seen.add(key)
    const chunk = manifest[key]
    if (!chunk) return
    if (/\.[cm]?js$/.test(chunk.file)) js.add(chunk.file)
    else if (chunk.file.endsWith('.css')) css.add(chunk.file)
    for (const c of chunk.css ?? []) css.add(c)
    for (const i of chunk.imports ?? []) visit(i)
  }
  for (const key of startKeys) visit(key)
  return { js: [...js], css: [...css] }
}

/** The app modules the build put into the given entry chunks; none if the build did not record them. */
function entryModules(dist: string, entryFiles: readonly string[]): string[] {
  const path = join(dist, ENTRY_MODULES_PATH)
  if (!existsSync(path)) return []
  const parsed = z.record(z.string(), z.array(z.string())).safeParse(JSON.parse(readFileSync(path, 'utf8')))
  if (!parsed.success) throw new Error(`${ENTRY_MODULES_PATH} is not a map of chunk files to modules`)
  return entryFiles.flatMap((file) => parsed.data[file] ?? [])
}

function readManifest(dist: string): Manifest | null {
  const path = join(dist, MANIFEST_PATH)
  if (!existsSync(path)) return null
  const parsed = manifestSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')))
  if (!parsed.success) throw new Error(`${MANIFEST_PATH} is not a Vite manifest: ${parsed.error.message}`)
  return parsed.data
}

/** Follows static imports through the built files themselves (no manifest). */
function collectFromFiles(dist: string, startFiles: string[]): string[] {
  const seen = new Set<string>()
  const queue = [...startFiles]
  while (queue.length > 0) {
    const file = queue.shift()
    if (file === undefined || seen.has(file)) continue
    const full = join(dist, file)
    if (!existsSync(full)) continue
    seen.add(file)
    for (const spec of staticImportsOf(readFileSync(full, 'utf8'))) {
      if (spec.startsWith('/')) queue.push(posix.normalize(spec.slice(1)))
      else if (spec.startsWith('.')) queue.push(posix.normalize(posix.join(posix.dirname(file), spec)))
    }
  }
  return [...seen]
}

/** The home route's initial JavaScript and CSS, as paths inside `dist`. */
export function homeRouteAssets(
  dist: string,
  routeModules: readonly RegExp[] = HOME_ROUTE_MODULES,
): InitialAssets {
  const html = parseIndexHtml(readFileSync(join(dist, 'index.html'), 'utf8'))
  const notes: string[] = []
  const unmatchedRoutes: string[] = []
  const local = (urls: string[]) =>
    urls.flatMap((u) => {
      const p = distPathOf(u)
      if (p === null) notes.push(`external, not measured: ${u}`)
      return p === null ? [] : [p]
    })
  const entryFiles = local(html.entryScripts)
  if (entryFiles.length === 0)
    throw new Error('index.html has no <script type="module" src>: is this a Vite build?')
  const js = new Set([...entryFiles, ...local(html.modulePreloads)])
  const css = new Set(local(html.stylesheets))

  const manifest = readManifest(dist)
  if (manifest) {
    const byFile = new Map(Object.entries(manifest).map(([key, chunk]) => [chunk.file, key]))
    const entryKeys = entryFiles.flatMap((f) => {
      const key = byFile.get(f)
      return key === undefined ? [] : [key]
    })
    const routeKeys: string[] = []
    const inEntry = entryModules(dist, entryFiles)
    for (const pattern of routeModules) {
      const keys = Object.keys(manifest).filter((k) => manifest[k]?.isDynamicEntry && pattern.test(k))
      // A route module merged into the entry chunk is already counted with it.
      const merged = inEntry.filter((m) => pattern.test(m))
      if (merged.length > 0) notes.push(`route modules in the entry chunk: ${merged.join(', ')}`)
      else if (keys.length === 0) unmatchedRoutes.push(String(pattern))
      routeKeys.push(...keys)
    }
    if (routeKeys.length > 0) notes.push(`route modules counted: ${[...new Set(routeKeys)].join(', ')}`)
    const found = collectFromManifest(manifest, [...entryKeys, ...routeKeys])
    for (const f of found.js) js.add(f)
    for (const f of found.css) css.add(f)
  } else {
    notes.push(
      `no ${MANIFEST_PATH} (set build.manifest: true): followed static imports only; ` +
        'lazy route modules and their CSS are not counted',
    )
    for (const f of collectFromFiles(dist, [...js])) js.add(f)
  }
  return { js: [...js], css: [...css], notes, unmatchedRoutes }
}

export interface SizedFile {
  file: string
  kind: 'js' | 'css'
  raw: number
  gzip: number
}

export function gzipSize(data: Buffer): number {
  return gzipSync(data, { level: zlibConstants.Z_BEST_COMPRESSION }).length
}

export function measure(dist: string, assets: Pick<InitialAssets, 'js' | 'css'>): SizedFile[] {
  const rows: SizedFile[] = []
  for (const [kind, files] of [
    ['js', assets.js],
    ['css', assets.css],
  ] as const) {
    for (const file of files) {
      const full = join(dist, file)
      if (!existsSync(full)) throw new Error(`${file} is referenced by the build but missing from ${dist}`)
      const data = readFileSync(full)
      rows.push({ file, kind, raw: data.length, gzip: gzipSize(data) })
    }
  }
  return rows.sort((a, b) => (a.kind === b.kind ? b.gzip - a.gzip : a.kind === 'js' ? -1 : 1))
}

export interface BudgetResult {
  jsGzip: number
  cssGzip: number
  jsOk: boolean
  cssOk: boolean
}

export function checkBudget(
  rows: SizedFile[],
  budget: { js: number; css: number } = { js: JS_BUDGET_GZIP_BYTES, css: CSS_BUDGET_GZIP_BYTES },
): BudgetResult {
  const total = (kind: SizedFile['kind']) =>
    rows.filter((r) => r.kind === kind).reduce((s, r) => s + r.gzip, 0)
  const jsGzip = total('js')
  const cssGzip = total('css')
  return { jsGzip, cssGzip, jsOk: jsGzip <= budget.js, cssOk: cssGzip <= budget.css }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

export function formatReport(rows: SizedFile[], result: BudgetResult, notes: string[]): string {
  const width = Math.max(4, ...rows.map((r) => r.file.length))
  const line = (kind: string, gzip: string, raw: string, file: string) =>
    `  ${kind.padEnd(4)} ${gzip.padStart(10)} ${raw.padStart(10)}   ${file.padEnd(width)}`.trimEnd()
  const out = [
    'Home route (/home) initial assets, gzip level 9 (1 KB = 1024 bytes)',
    line('kind', 'gzip', 'raw', 'file'),
    ...rows.map((r) => line(r.kind, kb(r.gzip), kb(r.raw), r.file)),
    '',
    `  JS  total ${kb(result.jsGzip).padStart(10)} of ${kb(JS_BUDGET_GZIP_BYTES).padStart(8)}  ${result.jsOk ? 'ok' : 'OVER BUDGET'}`,
    `  CSS total ${kb(result.cssGzip).padStart(10)} of ${kb(CSS_BUDGET_GZIP_BYTES).padStart(8)}  ${result.cssOk ? 'ok' : 'OVER BUDGET'}`,
  ]
  for (const note of notes) out.push(`  note: ${note}`)
  return out.join('\n')
}

function parseArgs(argv: string[]): { dist: string; routes: RegExp[] | undefined } {
  let dist = 'client/dist'
  const routes: RegExp[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--route') {
      const value = argv[++i]
      if (!value) throw new Error('--route needs a pattern')
      routes.push(new RegExp(value))
    } else if (arg) {
      dist = arg
    }
  }
  return { dist: resolve(dist), routes: routes.length > 0 ? routes : undefined }
}

function main(): void {
  const { dist, routes } = parseArgs(process.argv.slice(2))
  if (!existsSync(join(dist, 'index.html')) || !statSync(dist).isDirectory()) {
    process.stderr.write(`check-bundle-budget: no build in ${dist}; run \`npm run build:client\` first\n`)
    process.exit(1)
  }
  const assets = homeRouteAssets(dist, routes)
  const rows = measure(dist, assets)
  const result = checkBudget(rows)
  process.stdout.write(`${formatReport(rows, result, assets.notes)}\n`)
  if (assets.unmatchedRoutes.length > 0) {
    process.stderr.write(
      `check-bundle-budget: no lazy module of the manifest matches ${assets.unmatchedRoutes.join(', ')}; ` +
        'if the home route moved, update HOME_ROUTE_MODULES (or pass --route <pattern>)\n',
    )
    process.exit(1)
  }
  if (!result.jsOk || !result.cssOk) process.exit(1)
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main()
  } catch (err) {
    process.stderr.write(`check-bundle-budget: ${err instanceof Error ? err.message : String(err)}\n`)
    process.exit(1)
  }
}
