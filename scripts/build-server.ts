import { build } from 'esbuild'

/** Bundles the server and the contract into one ESM file; npm packages stay external. */
await build({
  entryPoints: ['server/main.ts'],
  outfile: 'dist/server/main.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  legalComments: 'none',
  logLevel: 'warning',
})
console.log('server built: dist/server/main.js')
