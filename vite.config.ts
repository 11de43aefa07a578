import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

/** Where the dev server forwards /api and /__emu: the server in emulator mode (scripts/dev.ts sets it). */
const apiTarget = process.env.DEV_API_TARGET ?? 'http://127.0.0.1:3001'

export default defineConfig({
  root: fileURLToPath(new URL('./client', import.meta.url)),
  plugins: [react()],
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
