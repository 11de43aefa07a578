import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { CLIENT_DIST, SERVER_ENTRY, type Started, startServer } from './server-process'

const CLIENT_INDEX = join(CLIENT_DIST, 'index.html')

/**
 * Starts two servers against the built client: the one most specs share (E2E_BASE_URL), each test
 * in its own scope; and one for the specs that move the world clock (E2E_WORLD_CLOCK_URL, the
 * `world-clock` project in playwright.config.ts), whose draws, deposit confirmations and
 * withdrawal reviews would otherwise jump ahead under the other specs' feet.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  for (const file of [SERVER_ENTRY, CLIENT_INDEX]) {
    if (!existsSync(file))
      throw new Error(`${file} is missing: run \`npm run build\` before the browser tests`)
  }
  const servers = await Promise.allSettled([startServer(), startServer()])
  const started = servers.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []))
  const failed = servers.find((s) => s.status === 'rejected')
  if (failed) {
    await Promise.all(started.map((s) => s.stop()))
    throw failed.reason
  }
  const [shared, worldClock] = started as [Started, Started]
  process.env.E2E_BASE_URL = shared.base
  process.env.E2E_WORLD_CLOCK_URL = worldClock.base
  return async () => {
    await Promise.all(started.map((s) => s.stop()))
  }
}
