import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig, type HtmlTagDescriptor, type Plugin } from 'vite'

/** Where the dev server forwards /api and /__emu: the server in emulator mode (scripts/dev.ts sets it). */
const apiTarget = process.env.DEV_API_TARGET ?? 'http://127.0.0.1:3001'

/** The lazy modules /home renders on first load; index.html preloads them (see below). */
const HOME_ROUTE_MODULES = ['src/app/layout/app-layout.tsx', 'src/features/home/home-page.tsx']

/**
 * Most visits start at /home. Its page modules are lazy, so without help the browser would fetch
 * them only after the entry script ran: one more round trip before the first screen. This adds
 * modulepreload links (and the stylesheets) for them and their static imports to index.html.
 */
function preloadHomeRoute(): Plugin {
  return {
    name: 'preload-home-route',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle
        if (!bundle) return html
        const chunks = Object.values(bundle).flatMap((item) => (item.type === 'chunk' ? [item] : []))
        const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]))
        const js = new Set<string>()
        const css = new Set<string>()
        const visit = (fileName: string) => {
          const chunk = byFile.get(fileName)
          if (!chunk || js.has(fileName) || chunk.isEntry) return
          js.add(fileName)
          for (const file of chunk.viteMetadata?.importedCss ?? []) css.add(file)
          for (const imported of chunk.imports) visit(imported)
        }
        for (const chunk of chunks) {
          const id = chunk.facadeModuleId?.replaceAll('\\', '/') ?? ''
          if (HOME_ROUTE_MODULES.some((module) => id.endsWith(`/client/${module}`))) visit(chunk.fileName)
        }
        const tags: HtmlTagDescriptor[] = []
        for (const file of js) {
          if (!html.includes(`/${file}"`)) {
            tags.push({
              tag: 'link',
              attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` },
              injectTo: 'head',
            })
          }
        }
        for (const file of css) {
          if (!html.includes(`/${file}"`)) {
            tags.push({
              tag: 'link',
              attrs: { rel: 'stylesheet', crossorigin: true, href: `/${file}` },
              injectTo: 'head',
            })
          }
        }
        return tags
      },
    },
  }
}

export default defineConfig({
  root: fileURLToPath(new URL('./client', import.meta.url)),
  plugins: [react(), preloadHomeRoute()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The chunk graph, for the bundle budget check.
    manifest: true,
    // Brotli and gzip siblings are written after the build (scripts/compress-assets.ts).
    reportCompressedSize: false,
    sourcemap: false,
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
