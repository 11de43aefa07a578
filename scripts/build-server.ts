import { build } from 'esbuild'

/** Bundles the server and the contract into one ESM file; npm packages stay external. */
// `--outfile <path>` builds elsewhere (it must stay inside the repository, for node_modules).
const at = process.argv.indexOf('--outfile')
const outfile = at > 0 ? (process.argv[at + 1] ?? 'dist/server/main.js') : 'dist/server/main.js'

await build({
  entryPoints: ['server/main.ts'],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  packages: 'external',
  sourcemap: true,
  legalComments: 'none',
  logLevel: 'warning',
})
console.log(`server built: ${outfile}`)
