import { buildApp } from './app'
import { ConfigError, loadConfig } from './config'

/** The only module that listens. Reads the environment, starts, and shuts down gracefully. */
async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>
  try {
    config = loadConfig()
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`)
      process.exit(1)
    }
    throw err
  }

  const app = await buildApp(config)
  await app.listen({ port: config.PORT, host: config.HOST })
  const shown = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST
  const port = (app.server.address() as { port: number } | null)?.port ?? config.PORT
  app.log.info(
    `${config.MODE} mode at http://${shown}:${port}` +
      (config.MODE === 'proxy' ? ` → ${config.UPSTREAM_URL}` : ` (database ${config.DB_PATH})`),
  )
  if (config.MODE === 'emulator' && !config.EMU_ADMIN_TOKEN) {
    app.log.info(
      'control API /__emu answers this machine only; set EMU_ADMIN_TOKEN to reach it from elsewhere',
    )
  }

  let closing = false
  const shutdown = (signal: string) => {
    if (closing) return
    closing = true
    app.log.info({ signal }, 'shutting down: finishing in-flight requests')
    const force = setTimeout(() => {
      app.log.error('shutdown took too long; exiting')
      process.exit(1)
    }, 10_000)
    force.unref()
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'error during shutdown')
        process.exit(1)
      },
    )
  }
  process.on('SIGTERM', () => shutdown('SIGTERM'))
  process.on('SIGINT', () => shutdown('SIGINT'))
}

main().catch((err: unknown) => {
  process.stderr.write(
    `failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  )
  process.exit(1)
})
