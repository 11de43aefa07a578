import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  CSS_BUDGET_GZIP_BYTES,
  checkBudget,
  collectFromManifest,
  distPathOf,
  formatReport,
  gzipSize,
  homeRouteAssets,
  JS_BUDGET_GZIP_BYTES,
  type Manifest,
  measure,
  parseIndexHtml,
  staticImportsOf,
} from './check-bundle-budget'

const INDEX_HTML = `<!doctype html>
<html lang="zh-CN">
  <head>
    <!-- <script type="module" src="/assets/commented-out.js"></script> -->
    <script type="module" crossorigin src="/assets/index-A1.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/vendor-B2.js">
    <link rel=stylesheet crossorigin href="/assets/index-C3.css">
    <link rel="icon" href="/favicon.svg">
    <link rel="stylesheet" href="https://fonts.example.com/a.css">
    <script>window.inline = 1</script>
  </head>
  <body><div id="root"></div></body>
</html>`

/** The shape of Vite's `.vite/manifest.json` with root `client`. */
const MANIFEST: Manifest = {
  'index.html': {
    file: 'assets/index-A1.js',
    src: 'index.html',
    isEntry: true,
    imports: ['_vendor-B2.js'],
    dynamicImports: [
      'src/app/layout/app-layout.tsx',
      'src/features/home/home-page.tsx',
      'src/features/mine/mine-page.tsx',
    ],
    css: ['assets/index-C3.css'],
  },
  '_vendor-B2.js': { file: 'assets/vendor-B2.js' },
  'src/app/layout/app-layout.tsx': {
    file: 'assets/layout-D4.js',
    src: 'src/app/layout/app-layout.tsx',
    isDynamicEntry: true,
    imports: ['_vendor-B2.js', '_tabbar-E5.js'],
    css: ['assets/layout-D4.css'],
  },
  '_tabbar-E5.js': { file: 'assets/tabbar-E5.js', css: ['assets/tabbar-E5.css'] },
  'src/features/home/home-page.tsx': {
    file: 'assets/home-page-F6.js',
    src: 'src/features/home/home-page.tsx',
    isDynamicEntry: true,
    imports: ['_vendor-B2.js'],
    dynamicImports: ['_screenshot-G7.js'],
  },
  '_screenshot-G7.js': { file: 'assets/screenshot-G7.js', isDynamicEntry: true },
  'src/features/mine/mine-page.tsx': {
    file: 'assets/mine-page-H8.js',
    src: 'src/features/mine/mine-page.tsx',
    isDynamicEntry: true,
    imports: ['_vendor-B2.js', '_qrcode-I9.js'],
  },
  '_qrcode-I9.js': { file: 'assets/qrcode-I9.js' },
}

describe('parseIndexHtml', () => {
  it('finds module entry scripts, modulepreloads and stylesheets, ignoring comments and inline scripts', () => {
    expect(parseIndexHtml(INDEX_HTML)).toEqual({
      entryScripts: ['/assets/index-A1.js'],
      modulePreloads: ['/assets/vendor-B2.js'],
      stylesheets: ['/assets/index-C3.css', 'https://fonts.example.com/a.css'],
    })
  })
})

describe('distPathOf', () => {
  it('maps local URLs into dist and refuses external ones', () => {
    expect(distPathOf('/assets/a.js')).toBe('assets/a.js')
    expect(distPathOf('./assets/a.js?v=1#x')).toBe('assets/a.js')
    expect(distPathOf('https://cdn.example.com/a.js')).toBeNull()
    expect(distPathOf('//cdn.example.com/a.js')).toBeNull()
  })
})

describe('staticImportsOf', () => {
  it('reads minified static imports and re-exports, not dynamic imports or import.meta', () => {
    const code =
      'import{j as e,r as t}from"./vendor-B2.js";import"./side-effect.js";import*as n from\'./ns.js\';' +
      'export{x}from"./re.js";const l=()=>import("./lazy.js");console.log(import.meta.url);' +
      'export*from"./all.js"'
    expect(staticImportsOf(code).sort()).toEqual(
      ['./all.js', './ns.js', './re.js', './side-effect.js', './vendor-B2.js'].sort(),
    )
  })
})

describe('collectFromManifest', () => {
  it('follows static imports and CSS but not dynamic imports', () => {
    const found = collectFromManifest(MANIFEST, ['index.html'])
    expect(found.js.sort()).toEqual(['assets/index-A1.js', 'assets/vendor-B2.js'])
    expect(found.css).toEqual(['assets/index-C3.css'])
  })

  it('adds route modules with their own imports and CSS, once each', () => {
    const found = collectFromManifest(MANIFEST, [
      'index.html',
      'src/app/layout/app-layout.tsx',
      'src/features/home/home-page.tsx',
    ])
    expect(found.js.sort()).toEqual([
      'assets/home-page-F6.js',
      'assets/index-A1.js',
      'assets/layout-D4.js',
      'assets/tabbar-E5.js',
      'assets/vendor-B2.js',
    ])
    expect(found.css.sort()).toEqual(['assets/index-C3.css', 'assets/layout-D4.css', 'assets/tabbar-E5.css'])
  })
})

describe('a build on disk', () => {
  let dist: string

  /** Files of known size; random bytes so that gzip cannot shrink them much. */
  function write(path: string, content: string | Buffer) {
    const full = join(dist, path)
    mkdirSync(dirname(full), { recursive: true })
    writeFileSync(full, content)
  }

  beforeEach(() => {
    dist = mkdtempSync(join(tmpdir(), 'budget-'))
    write('index.html', INDEX_HTML)
    write('assets/index-A1.js', 'import{a}from"./vendor-B2.js";const l=()=>import("./mine-page-H8.js");a(l)')
    write('assets/vendor-B2.js', `export const a=(x)=>x;/*${randomBytes(3000).toString('hex')}*/`)
    write('assets/index-C3.css', 'body{margin:0}'.repeat(100))
    write('assets/layout-D4.js', 'import"./tabbar-E5.js";')
    write('assets/layout-D4.css', '.layout{display:flex}')
    write('assets/tabbar-E5.js', 'export{}')
    write('assets/tabbar-E5.css', '.tab{color:red}')
    write('assets/home-page-F6.js', 'export default 1')
    write('assets/mine-page-H8.js', `import"./qrcode-I9.js";`)
    write('assets/qrcode-I9.js', randomBytes(50_000))
    write('assets/screenshot-G7.js', randomBytes(50_000))
  })
  afterEach(() => {
    rmSync(dist, { recursive: true, force: true })
  })

  it('with a manifest, counts the entry, its imports and the /home route modules, not other pages', () => {
    write('.vite/manifest.json', JSON.stringify(MANIFEST))
    const assets = homeRouteAssets(dist)
    expect(assets.js.sort()).toEqual([
      'assets/home-page-F6.js',
      'assets/index-A1.js',
      'assets/layout-D4.js',
      'assets/tabbar-E5.js',
      'assets/vendor-B2.js',
    ])
    expect(assets.css.sort()).toEqual(['assets/index-C3.css', 'assets/layout-D4.css', 'assets/tabbar-E5.css'])
    expect(assets.notes).toContain('external, not measured: https://fonts.example.com/a.css')
  })

  it('reports a route pattern that matches no lazy module', () => {
    write('.vite/manifest.json', JSON.stringify(MANIFEST))
    const assets = homeRouteAssets(dist, [/pages\/nowhere/, /home-page\.tsx$/])
    expect(assets.unmatchedRoutes).toEqual(['/pages\\/nowhere/'])
    expect(assets.js).toContain('assets/home-page-F6.js')
    expect(homeRouteAssets(dist).unmatchedRoutes).toEqual([])
  })

  it('counts a route module the build merged into the entry chunk as part of it', () => {
    const { 'src/features/home/home-page.tsx': _merged, ...rest } = MANIFEST
    write('.vite/manifest.json', JSON.stringify(rest))
    const assets = homeRouteAssets(dist)
    expect(assets.unmatchedRoutes).toEqual(['/(^|\\/)features\\/home\\/home-page\\.tsx$/'])
    write(
      '.vite/entry-modules.json',
      JSON.stringify({ 'assets/index-A1.js': ['src/main.tsx', 'src/features/home/home-page.tsx'] }),
    )
    const merged = homeRouteAssets(dist)
    expect(merged.unmatchedRoutes).toEqual([])
    expect(merged.js).not.toContain('assets/home-page-F6.js')
    expect(merged.notes).toContain('route modules in the entry chunk: src/features/home/home-page.tsx')
  })

  it('without a manifest, follows the static imports of the built files and says so', () => {
    const assets = homeRouteAssets(dist)
    expect(assets.js.sort()).toEqual(['assets/index-A1.js', 'assets/vendor-B2.js'])
    expect(assets.css).toEqual(['assets/index-C3.css'])
    expect(assets.notes.some((n) => n.includes('build.manifest: true'))).toBe(true)
  })

  it('refuses a manifest of the wrong shape', () => {
    write('.vite/manifest.json', JSON.stringify({ 'index.html': { src: 'index.html' } }))
    expect(() => homeRouteAssets(dist)).toThrow(/not a Vite manifest/)
  })

  it('sums gzip sizes per kind and compares them with the budget', () => {
    write('.vite/manifest.json', JSON.stringify(MANIFEST))
    const rows = measure(dist, homeRouteAssets(dist))
    const vendor = rows.find((r) => r.file === 'assets/vendor-B2.js')
    expect(vendor?.raw).toBeGreaterThan(6000)
    expect(vendor?.gzip).toBeLessThan(vendor?.raw ?? 0)
    const jsSum = rows.filter((r) => r.kind === 'js').reduce((s, r) => s + r.gzip, 0)
    const cssSum = rows.filter((r) => r.kind === 'css').reduce((s, r) => s + r.gzip, 0)

    expect(checkBudget(rows)).toEqual({ jsGzip: jsSum, cssGzip: cssSum, jsOk: true, cssOk: true })
    expect(checkBudget(rows, { js: jsSum, css: cssSum })).toMatchObject({ jsOk: true, cssOk: true })
    expect(checkBudget(rows, { js: jsSum - 1, css: cssSum })).toMatchObject({ jsOk: false, cssOk: true })
    expect(checkBudget(rows, { js: jsSum, css: cssSum - 1 })).toMatchObject({ jsOk: true, cssOk: false })

    const report = formatReport(rows, checkBudget(rows, { js: jsSum - 1, css: cssSum }), [])
    expect(report).toContain('assets/vendor-B2.js')
    expect(report).toMatch(/JS {2}total .* OVER BUDGET/)
  })

  it('fails loudly when the build references a file that is missing', () => {
    expect(() => measure(dist, { js: ['assets/gone.js'], css: [] })).toThrow(/missing/)
  })
})

describe('the budgets', () => {
  it('are 107 KB of JavaScript and 30 KB of CSS, gzipped', () => {
    expect(JS_BUDGET_GZIP_BYTES).toBe(107 * 1024)
    expect(CSS_BUDGET_GZIP_BYTES).toBe(30 * 1024)
    expect(gzipSize(Buffer.from('a'.repeat(10_000)))).toBeLessThan(100)
  })
})
