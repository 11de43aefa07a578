import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'
import { VitePWA } from 'vite-plugin-pwa'
import { MANIFEST_FILE, WEB_APP_MANIFEST } from './client/src/lib/pwa-manifest'
import { announcementRoute } from './shared/contract/first-screen'

/** Where the dev server forwards /api and /__emu: the server in emulator mode (scripts/dev.ts sets it). */
const apiTarget = process.env.DEV_API_TARGET ?? 'http://127.0.0.1:3001'

/**
 * The first screen's stylesheet (one small file, see app/first-screen-styles.ts) goes into
 * index.html as a `<style>`. As a `<link>` it blocks the first paint, even of the boot splash, for
 * one more round trip after the page itself; inline, the splash paints as soon as the page is
 * parsed. The file stays in the build and in the manifest (the bundle budget counts it from there).
 */
function inlineEntryStylesheet(): Plugin {
  return {
    name: 'inline-entry-stylesheet',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle
        if (!bundle) return html
        return html.replace(/<link rel="stylesheet"[^>]*? href="\/([^"]+\.css)">/g, (tag, file: string) => {
          const asset = bundle[file]
          if (asset?.type !== 'asset') return tag
          const css = typeof asset.source === 'string' ? asset.source : new TextDecoder().decode(asset.source)
          return `<style>${css.replaceAll('</style', '<\\/style')}</style>`
        })
      },
    },
  }
}

/**
 * index.html asks for the home page's announcements itself, with a preload: the line is usually the
 * largest text of the first screen, and its answer then arrives while the entry script still loads,
 * instead of one round trip after it has run (on a repeat visit, whose scripts come from the service
 * worker, that round trip with its new connection was most of the wait). The browser hands the answer
 * to the app's first request for it, on whichever route the app opens
 * (features/home/announcements-request.ts; docs/client.md#the-first-screen). The call is public: a
 * preload carries no token.
 */
function preloadAnnouncements(): Plugin {
  return {
    name: 'preload-announcements',
    transformIndexHtml: () => [
      {
        tag: 'link',
        attrs: { rel: 'preload', as: 'fetch', href: announcementRoute.path, crossorigin: 'anonymous' },
        injectTo: 'head',
      },
    ],
  }
}

/** Where the build records which source modules each entry chunk holds (next to Vite's manifest). */
const ENTRY_MODULES_FILE = '.vite/entry-modules.json'

/**
 * Vite's manifest lists chunks, not the modules merged into them: this records the app's own
 * modules in each entry chunk (paths relative to the client root, like the manifest's keys), so the
 * bundle budget check can tell a home route module merged into the entry from one that moved.
 */
function recordEntryModules(): Plugin {
  let root = ''
  return {
    name: 'record-entry-modules',
    apply: 'build',
    configResolved(config) {
      root = `${config.root.replaceAll('\\', '/')}/`
    },
    generateBundle(_options, bundle) {
      const entries: Record<string, string[]> = {}
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || !chunk.isEntry) continue
        entries[chunk.fileName] = chunk.moduleIds
          .map((id) => id.replaceAll('\\', '/'))
          .filter((id) => id.startsWith(root) && !id.includes('/node_modules/'))
          .map((id) => id.slice(root.length))
      }
      this.emitFile({
        type: 'asset',
        fileName: ENTRY_MODULES_FILE,
        source: `${JSON.stringify(entries, null, 2)}\n`,
      })
    },
  }
}

/**
 * Gives the entry chunk its own copy of the bundler's module runtime. `import { a as b } from
 * "./<runtime>.js"` at the top of `entryCode` becomes a constant taken from the runtime chunk's code
 * run in a function of its own, so its names cannot meet the entry's. Throws when either statement
 * is not in the shape Rolldown writes, so that a bundler update that changes it fails the build.
 */
export function inlineRuntimeImport(entryCode: string, runtimeFile: string, runtimeCode: string): string {
  const base = runtimeFile.slice(runtimeFile.lastIndexOf('/') + 1).replaceAll('.', '\\.')
  const importStatement = new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*["']\\./${base}["'];?`)
  const imported = importStatement.exec(entryCode)
  const exported = /export\s*\{([^}]*)\}\s*;?\s*$/.exec(runtimeCode)
  if (!imported?.[1] || !exported?.[1])
    throw new Error(`the entry's import of ${runtimeFile}, or that chunk's exports, are not in a known shape`)
  // `local as name` on both sides: what the runtime exports under a name, what the entry calls it.
  const pairs = (list: string) =>
    list
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const [first = '', second] = part.split(/\s+as\s+/)
        return [first, second ?? first] as const
      })
  const exports = pairs(exported[1]).map(([local, name]) => `${JSON.stringify(name)}:${local}`)
  const bindings = pairs(imported[1]).map(([name, local]) => `${JSON.stringify(name)}:${local}`)
  const body = runtimeCode.slice(0, exported.index)
  const copy = `const{${bindings.join(',')}}=(()=>{${body}\nreturn{${exports.join(',')}}})();\n`
  return copy + entryCode.replace(imported[0], '')
}

/**
 * Rolldown keeps its module runtime (its CommonJS interop helpers, under 1 KB) in a chunk of its own,
 * which the entry imports, so index.html preloads it beside the entry: one more request on a first
 * visit, and in Lighthouse's simulated network one that shares the link with the entry while it waits
 * for its connection. The entry gets its own copy instead (inlineRuntimeImport); the lazily loaded
 * chunks still import the shared one, fetched with the first of them (docs/client.md#the-first-screen).
 * Order `pre`, so that index.html and the manifest are written from the entry's imports without it.
 */
function entryWithOwnRuntime(): Plugin {
  return {
    name: 'entry-with-own-runtime',
    apply: 'build',
    generateBundle: {
      order: 'pre',
      handler(_options, bundle) {
        for (const entry of Object.values(bundle)) {
          if (entry.type !== 'chunk' || !entry.isEntry) continue
          for (const file of entry.imports) {
            const runtime = bundle[file]
            if (runtime?.type !== 'chunk' || !runtime.moduleIds.every(isRuntimeModule)) continue
            entry.code = inlineRuntimeImport(entry.code, file, runtime.code)
            entry.imports = entry.imports.filter((f) => f !== file)
          }
        }
      },
    },
  }
}

const isRuntimeModule = (id: string) => id.includes('rolldown:runtime') || id.includes('rolldown/runtime')

/** Where zod keeps its JSON Schema conversion, which every classic schema imports. */
const ZOD_JSON_SCHEMA_MODULE = /\/zod\/v4\/core\/(?:to-json-schema|json-schema-processors)\.js$/
const ZOD_CLASSIC_SCHEMAS = /\/zod\/v4\/classic\/schemas\.js$/
const JSON_SCHEMA_STUB = '\0zod-json-schema-stub:'

/**
 * A stand-in for one of zod's JSON Schema modules: every export the real one has, as a function
 * that throws when called (a `create…Method` export returns such a function, as the real one does).
 */
export function jsonSchemaStubSource(realSource: string): string {
  const names = new Set<string>()
  for (const m of realSource.matchAll(/\bexport\s+(?:const|let|function)\s+([\w$]+)/g))
    if (m[1]) names.add(m[1])
  for (const m of realSource.matchAll(/\bexport\s*\{([^}]*)\}/g))
    for (const part of (m[1] ?? '').split(',')) {
      const exported = part
        .trim()
        .split(/\s+as\s+/)
        .pop()
      if (exported) names.add(exported)
    }
  const lines = [
    'function unavailable() {',
    "  throw new Error('zod JSON Schema conversion is not included in the client build (vite.config.ts)')",
    '}',
  ]
  for (const name of names)
    lines.push(
      name.startsWith('create')
        ? `export function ${name}() { return unavailable }`
        : `export function ${name}() { return unavailable() }`,
    )
  return `${lines.join('\n')}\n`
}

/**
 * zod's classic schemas carry their JSON Schema conversion (`.toJSONSchema()`, Standard Schema's
 * `jsonSchema`) in two modules that each schema module imports, over 5 KB gzipped of the first
 * screen. The browser never converts a schema (the server does, for the OpenAPI document, and is
 * not built here), so in the client build those imports resolve to stand-ins that throw if called.
 */
function zodWithoutJsonSchema(): Plugin {
  return {
    name: 'zod-without-json-schema',
    apply: 'build',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer || !ZOD_CLASSIC_SCHEMAS.test(importer.replaceAll('\\', '/'))) return null
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true })
      if (!resolved || !ZOD_JSON_SCHEMA_MODULE.test(resolved.id.replaceAll('\\', '/'))) return null
      return `${JSON_SCHEMA_STUB}${resolved.id}`
    },
    load(id) {
      if (!id.startsWith(JSON_SCHEMA_STUB)) return null
      return jsonSchemaStubSource(readFileSync(id.slice(JSON_SCHEMA_STUB.length), 'utf8'))
    },
  }
}

const ANTD_UNSTABLE_RENDER = /\/antd-mobile\/es\/utils\/unstable-render\.js$/
const ANTD_LEGACY_RENDER_STUB = '\0antd-mobile-legacy-render-stub'

/**
 * antd-mobile renders Toast, Dialog and its other imperative pieces through a function that
 * lib/antd-react19.ts replaces before anything renders (the entry imports it first). The default
 * it replaces is rc-util's ReactDOM.render wrapper, which does nothing under React 19 yet brings
 * Babel's async runtime into the first screen: in the client build it resolves to a stand-in that
 * throws if it is ever called.
 */
function antdWithoutLegacyRender(): Plugin {
  return {
    name: 'antd-mobile-without-legacy-render',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source !== './render' || !importer || !ANTD_UNSTABLE_RENDER.test(importer.replaceAll('\\', '/')))
        return null
      return ANTD_LEGACY_RENDER_STUB
    },
    load(id) {
      if (id !== ANTD_LEGACY_RENDER_STUB) return null
      return [
        'function unavailable() {',
        "  throw new Error('antd-mobile rendered before lib/antd-react19.ts set its renderer')",
        '}',
        'export const render = unavailable',
        'export const unmount = unavailable',
      ].join('\n')
    },
  }
}

/**
 * The service worker (Workbox, generated at build time; docs/pwa.md). It precaches the shell
 * (index.html), every hashed asset, the icons and the manifest, and answers every navigation with the
 * cached shell, so a repeat visit starts without the network and a reload offline still opens the app.
 * It never answers for /api or /__emu: those navigations are denied the shell and no runtime route
 * caches anything, so every API call goes to the network. A new build waits until the player accepts
 * the refresh the page offers (lib/pwa-status.ts), so an open page never mixes two builds.
 */
function serviceWorker(): Plugin[] {
  const pwa = VitePWA({
    registerType: 'prompt',
    // Registered by lib/pwa.ts after the first screen, not by a script tag in index.html.
    injectRegister: false,
    // The icons are in the precache through globPatterns already.
    includeManifestIcons: false,
    manifest: WEB_APP_MANIFEST,
    manifestFilename: MANIFEST_FILE,
    workbox: {
      globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
      // Vite's hashed file names already change with their content.
      dontCacheBustURLsMatching: /^assets\//,
      navigateFallback: 'index.html',
      navigateFallbackDenylist: [/^\/api(\/|$)/, /^\/api-docs(\/|$)/, /^\/__emu(\/|$)/],
      cleanupOutdatedCaches: true,
      skipWaiting: false,
      clientsClaim: false,
    },
  })
  return [...pwa, manifestLinkAfterFirstScreen()]
}

/**
 * Takes the `<link rel="manifest">` that vite-plugin-pwa writes into index.html out again: lib/pwa.ts
 * adds it once the first screen is up. Linked from the page, the manifest and an icon are fetched
 * while it loads and share the network with the entry script (docs/client.md#the-first-screen).
 */
function manifestLinkAfterFirstScreen(): Plugin {
  const link = /<link rel="manifest"[^>]*>/
  return {
    name: 'manifest-link-after-first-screen',
    apply: 'build',
    enforce: 'post',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        if (!link.test(html)) throw new Error('index.html has no manifest link to take out')
        return html.replace(link, '')
      },
    },
  }
}

export default defineConfig({
  root: fileURLToPath(new URL('./client', import.meta.url)),
  // @client/…, @shared/…, @server/… as tsconfig.json's paths say.
  resolve: { tsconfigPaths: true },
  plugins: [
    react(),
    zodWithoutJsonSchema(),
    antdWithoutLegacyRender(),
    preloadAnnouncements(),
    inlineEntryStylesheet(),
    entryWithOwnRuntime(),
    recordEntryModules(),
    serviceWorker(),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The chunk graph, for the bundle budget check.
    manifest: true,
    // Brotli and gzip siblings are written after the build (scripts/compress-assets.ts).
    reportCompressedSize: false,
    sourcemap: false,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Every module the entry imports statically (rolldown's `$initial` tag; the home page and
          // its layout are among them, app/router.tsx) goes into one chunk, which rolldown merges
          // into the entry. Left to automatic chunking, the ones shared with lazily loaded pages
          // end up in a handful of small chunks, each one more request before the first screen.
          groups: [{ name: 'app', tags: ['$initial'] }],
        },
      },
    },
  },
  server: {
    host: '127.0.0.1',
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/__emu': { target: apiTarget, changeOrigin: false },
    },
  },
  preview: {
    host: '127.0.0.1',
    proxy: {
      '/api': { target: apiTarget },
      '/__emu': { target: apiTarget },
    },
  },
})
