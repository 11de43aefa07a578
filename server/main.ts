import { createServer } from 'node:http'
import { buildApp } from './app'
import { type Config, ConfigError, loadConfig } from './config'
import { AdapterError } from './upstream/adapter'

/**
 * After the drain window, how long kept-alive connections get to end by themselves (each closes
 * after its next answer) before the server stops taking connections.
 */
const CONNECTION_GRACE_MS = 500

/** Where log lines go: coloured lines on a terminal (or LOG_FORMAT=pretty), JSON lines otherwise. */
async function logStream(config: Config): Promise<NodeJS.WritableStream | undefined> {
  const pretty = config.LOG_FORMAT === 'pretty' || (config.LOG_FORMAT === 'auto' && process.stdout.isTTY)
  if (!pretty) return undefined
  const { default: build } = await import('pino-pretty')
  return build({ colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', singleLine: false })
}

/** The only module that listens. Reads the environment, starts, drains and shuts down gracefully. */
async function main(): Promise<void> {
  let config: Config
  try {
    config = loadConfig()
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`)
      process.exit(1)
    }
    throw err
  }

  let app: Awaited<ReturnType<typeof buildApp>>
  try {
    app = await buildApp(config, undefined, await logStream(config))
  } catch (err) {
    if (err instanceof AdapterError) {
      process.stderr.write(`UPSTREAM_ADAPTER is not valid:\n${err.message}\n`)
      process.exit(1)
    }
    throw err
  }
  await app.listen({ port: config.PORT, host: config.HOST })
  const shown = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST
  const port = (app.server.address() as { port: number } | null)?.port ?? config.PORT
  app.log.info(
    `${config.MODE} mode at http://${shown}:${port}` +
      (config.MODE === 'proxy' ? ` → ${config.UPSTREAM_URL}` : ` (database ${config.DB_PATH})`) +
      ` on Node.js ${process.version}`,
  )
  if (config.MODE === 'emulator' && !config.EMU_ADMIN_TOKEN) {
    app.log.info(
      'control API /__emu answers this machine only; set EMU_ADMIN_TOKEN to reach it from elsewhere',
    )
  }

  const metrics = app.metrics
  let metricsServer: ReturnType<typeof createServer> | null = null
  if (metrics && config.METRICS_PORT !== undefined) {
    metricsServer = createServer((req, res) => {
      if (req.url !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: metrics are at /metrics\n')
        return
      }
      metrics.ready.set(app.health.notReady() ? 0 : 1)
      metrics.text().then(
        (text) => res.writeHead(200, { 'content-type': metrics.contentType }).end(text),
        (err: unknown) => {
          app.log.error({ err }, 'metrics failed')
          res.writeHead(500).end()
        },
      )
    })
    const server = metricsServer
    await new Promise<void>((resolve) => server.listen(config.METRICS_PORT, config.METRICS_HOST, resolve))
    const at = server.address() as { port: number }
    app.log.info(`metrics at http://${config.METRICS_HOST}:${at.port}/metrics`)
  }

  // The emulator's games chain and odds are made now rather than on the first player's visit or at
  // the first draw; /readyz says ready once they are (about 2 s for a million links, then under 1 s).
  if (app.hasDecorator('emu'))
    setImmediate(() => {
      app.emu.games.rounds.ensureChain()
      setImmediate(() => app.emu.games.rounds.priceEveryGame())
    })

  let closing = false
  const shutdown = (signal: string) => {
    if (closing) return
    closing = true
    // 1. Not ready: balancers stop sending new players. 2. Keep serving for the drain window.
    // 3. Stop taking connections, finish what is in flight (open connections close after their
    // answer), close the database. Then exit.
    // Ctrl-C at a terminal stops at once; SIGTERM (a deploy, a scale-down) drains first.
    const drainMs = signal === 'SIGTERM' ? config.SHUTDOWN_DRAIN_MS : 0
    app.health.startDraining()
    if (drainMs > 0) app.log.info({ signal, drainMs }, 'draining: not ready, still serving')
    setTimeout(() => {
      // Kept-alive connections end after their next answer; then the server stops taking
      // connections, finishes what is in flight and closes the rest.
      app.health.stopKeepAlive()
      setTimeout(close, CONNECTION_GRACE_MS)
    }, drainMs)
    const close = () => {
      app.log.info('shutting down: finishing in-flight requests')
      const force = setTimeout(() => {
        app.log.error('shutdown took too long; exiting')
        process.exit(1)
      }, 10_000)
      force.unref()
      Promise.all([
        app.close(),
        new Promise((resolve) => (metricsServer ? metricsServer.close(resolve) : resolve(null))),
      ]).then(
        () => process.exit(0),
        (err: unknown) => {
          app.log.error({ err }, 'error during shutdown')
          process.exit(1)
        },
      )
    }
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
