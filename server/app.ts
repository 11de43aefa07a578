import formbody from '@fastify/formbody'
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import type { Config, TrustProxy } from './config'
import { accountRoutes } from './emulator/account/account-routes'
import { agentRoutes } from './emulator/agent/agent-routes'
import { EmuClock } from './emulator/clock'
import { contentRoutes } from './emulator/content/content-routes'
import { createEmulator } from './emulator/emulator'
import { gamesControlRoutes } from './emulator/games/games-control-routes'
import { gamesRoutes } from './emulator/games/games-routes'
import { protectionRoutes } from './emulator/protection/protection-routes'
import { walletControlRoutes } from './emulator/wallet/wallet-control-routes'
import { walletRoutes } from './emulator/wallet/wallet-routes'
import { FaultLayer } from './fault/fault-layer'
import { connectFaultRedis } from './fault/redis-connection'
import { SharedFaults } from './fault/shared-faults'
import { clientErrorHandler, frameworkErrorHandler, installErrorHandler } from './http/error-handler'
import { rateLimits } from './http/rate-limits'
import { collectRouteMethods } from './http/route-methods'
import { zodValidatorCompiler } from './http/validation'
import { Health } from './ops/health'
import { Metrics } from './ops/metrics'
import { requestIdGenerator } from './ops/request-id'
import { apiDocs } from './plugins/api-docs'
import { controlDocs } from './plugins/control-docs'
import { emulatorPlugin } from './plugins/emulator-plugin'
import { faultLayerPlugin } from './plugins/fault-layer-plugin'
import { operations } from './plugins/operations'
import { requestTarget } from './plugins/request-target'
import { security } from './plugins/security'
import { staticClient } from './plugins/static-client'
import { UpstreamWatch, upstreamPool, upstreamProxy } from './plugins/upstream-proxy'
import { type EventHub, MemoryEventHub } from './realtime/event-hub'
import { type Lease, soleLease } from './realtime/lease'
import { proxyStream } from './realtime/proxy-stream'
import { streamRoutes } from './realtime/stream-routes'
import type { ReaderTimers, UpstreamReader } from './realtime/upstream-reader'
import { controlRoutes } from './routes/emu/control-routes'
import { upstreamControlRoutes } from './routes/emu/upstream-control-routes'
import { imageProxyRoutes } from './routes/image-proxy'
import { connectSharedState } from './scale/shared-state'
import { loadAdapter } from './upstream/adapter'
import { ContractMonitor } from './upstream/contract-monitor'
import { UpstreamClient } from './upstream/upstream-client'

/** Secret fields, wherever they appear: a body, a form, a query string. */
const SECRET_FIELDS = ['password', 'old_password', 'new_password', 'pay_password', 'login_password', 'token']
const SECRET_QUERY = new RegExp(`([?&](?:${SECRET_FIELDS.join('|')}|sms_code|code)=)[^&#]*`, 'gi')

/** A request target as logged: the values of secret query fields replaced (`?token=[redacted]`). */
export function redactTarget(url: string): string {
  return url.includes('?') ? url.replace(SECRET_QUERY, '$1[redacted]') : url
}

/**
 * Fields that never reach the log: secret headers of a logged request or answer, and secret fields
 * of a logged body. Fastify's request lines carry neither headers nor bodies, so these guard
 * whatever logs them on purpose. The paths are named, not wildcards: pino runs a wildcard path
 * over the bindings of every request's child logger too, which costs each request time.
 */
const REDACT = [
  'req.headers.token',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-emu-admin-token"]',
  'res.headers["set-cookie"]',
  'headers.token',
  'headers.authorization',
  'headers.cookie',
  'headers["x-emu-admin-token"]',
  ...SECRET_FIELDS.flatMap((field) => [field, `body.${field}`, `req.body.${field}`]),
]

/**
 * TRUST_PROXY as Fastify takes it. A hop count trusts that many hops nearest this server whoever
 * they are (Fastify 5 itself no longer reads a number), so it fits only a server that nothing reaches
 * except through its proxies; an address list also checks who the hops are.
 */
export function trustProxyOption(
  trust: TrustProxy,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust
  if (trust === 0) return false
  return (_address, hop) => hop < trust
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered, method by method (HEAD routes Fastify adds included). */
    routeList: readonly { method: string; url: string }[]
  }
}

/** The server's own upstream calls (the push channel's session check and reader) give up after this long. */
const UPSTREAM_OWN_CALL_TIMEOUT_MS = 10_000
/**
 * The upstream reader's lease across processes: renewed at each turn (at least every 5 s, its
 * lease check), so a holder that stops is replaced within about this long.
 */
const READER_LEASE_TTL_MS = 10_000

/**
 * Proxy mode's push channel parts a caller may choose (docs/realtime.md#proxy-mode): the hub and the
 * lease (one process's by default), the reader's timers, and a look at the reader (tests, benchmarks).
 */
export interface ProxyRealtimeParts {
  readonly hub?: EventHub
  readonly lease?: Lease
  readonly readerTimers?: ReaderTimers
  /** The reader's clock, with its timers (a test's virtual time). */
  readonly readerNow?: () => number
  readonly onReader?: (reader: UpstreamReader) => void
}

/** Builds the whole server without listening; tests call `inject` on it, main.ts listens. */
export async function buildApp(
  config: Config,
  clock = new EmuClock(),
  /** Where log lines go; stdout unless a test wants to read them. */
  logStream?: NodeJS.WritableStream,
  proxyRealtime: ProxyRealtimeParts = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.LOG_LEVEL,
      redact: { paths: REDACT, censor: '[redacted]' },
      serializers: {
        // Fastify's request line, with secrets in the query string redacted like the journal does.
        req: (request: FastifyRequest) => ({
          method: request.method,
          url: redactTarget(request.url),
          host: request.host,
          remoteAddress: request.ip,
          remotePort: request.socket?.remotePort,
        }),
      },
      ...(logStream ? { stream: logStream } : {}),
    },
    bodyLimit: config.BODY_LIMIT,
    trustProxy: trustProxyOption(config.TRUST_PROXY),
    // The request id a trusted proxy sent, else a new one (see ./ops/request-id.ts).
    genReqId: requestIdGenerator(config.TRUST_PROXY),
    // While closing, requests on connections already open are still served (each connection then
    // closes after its answer, see below): a drain drops nothing.
    return503OnClosing: false,
    clientErrorHandler,
    frameworkErrors: frameworkErrorHandler,
    requestTimeout: 0,
    // No limit on how long a plugin may take to start: every plugin is this server's own, and a busy
    // machine (a CI run beside other work) took avvio's default 10 s to refuse a healthy start.
    pluginTimeout: 0,
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>()

  app.setValidatorCompiler(zodValidatorCompiler)
  installErrorHandler(app)
  const methodsOf = collectRouteMethods(app)
  // Every route as registered, for the checks that tie /api routes to the contract (api-routes.test.ts).
  const routeList: { method: string; url: string }[] = []
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routeList.push({ method, url: route.url })
  })
  app.decorate('routeList', routeList as readonly { method: string; url: string }[])

  const health = new Health()
  // Graceful shutdown: requests in flight finish, and their keep-alive connections close after
  // the answer instead of holding the shutdown open.
  let closing = false
  app.addHook('preClose', async () => {
    closing = true
  })
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing || !health.keepAlive) reply.header('connection', 'close')
    done(null, payload)
  })

  const metrics = config.METRICS_PORT === undefined ? null : new Metrics({ defaultMetrics: true })
  // Several processes share events, rate limits and leases through Redis (docs/deploy.md); without
  // REDIS_URL everything stays in this process's memory.
  const shared = config.REDIS_URL
    ? await connectSharedState({
        url: config.REDIS_URL,
        replaySize: config.STREAM_REPLAY_SIZE,
        now: () => clock.now(),
        log: app.log,
        metrics,
        health,
      })
    : null
  if (shared) app.addHook('onClose', () => shared.close())

  // First: a target not in the one spelling is refused, every other request learns what handles it.
  await app.register(requestTarget, { methodsOf })
  await app.register(security, {
    frameHosts: config.THIRD_PARTY_ORIGINS,
    rateLimitStore: shared?.rateLimitStore ?? null,
  })
  await app.register(operations, { config, health, metrics })
  await app.register(faultLayerPlugin, { clock, adminToken: config.EMU_ADMIN_TOKEN })
  // Both modes; its static path wins over the upstream proxy's /api/* wildcard.
  await app.register(imageProxyRoutes, { config })

  // Every domain is built here, once, with what it needs from the others (see server/README.md).
  const emu = config.MODE === 'emulator' ? createEmulator(config, clock, app.log, shared?.hub) : null
  let monitor: ContractMonitor | null = null
  if (emu) {
    health.add('database', () => (emu.db.open ? null : 'closed'))
    // Made on first use of the games; main.ts asks for it right after listening.
    health.add('games chain', () => (emu.games.chain.get() ? null : 'not made yet'))
    // Worked out once, after the chain (main.ts): at a draw they would stall every answer.
    health.add('games odds', () => (emu.games.rounds.priced ? null : 'not worked out yet'))
    metrics?.gauge(
      'ledger_drift_accounts',
      'Accounts whose balance differs from the sum of their ledger rows (must be 0)',
      () => emu.ledger.drift().length,
    )
    await app.register(emulatorPlugin, { config, emu })
    await app.register(async (api) => {
      // Multipart is read only by the routes whose contract says so (see contractRoute).
      await api.register(formbody)
      await api.register(accountRoutes, { config, accounts: emu.accounts })
      await api.register(gamesRoutes, { games: emu.games })
      await api.register(agentRoutes, { config, agent: emu.agent })
      await api.register(contentRoutes, { config, content: emu.content, clock })
      await api.register(walletRoutes, { wallet: emu.wallet })
      await api.register(protectionRoutes, { config, protection: emu.protection.service })
      await api.register(streamRoutes, {
        hub: emu.events,
        authenticate: app.authenticate,
        sessionState: (request) => {
          const player = request.player
          if (!player) return 'revoked'
          const state = emu.accounts.sessions.stateOf(player.token, clock.nowFor(FaultLayer.scopeOf(request)))
          if (state === 'expired') return 'expired'
          if (state !== 'live' || !emu.protection.guard.sessionAllowed(player.id, clock.now()))
            return 'revoked'
          return 'live'
        },
        now: () => clock.now(),
        heartbeatMs: config.STREAM_HEARTBEAT_MS,
        onRecheck: (recheck) => clock.onChange(recheck),
        metrics,
        faults: app.faults.streamFaults,
      })
    })
  } else if (config.UPSTREAM_URL) {
    monitor =
      config.UPSTREAM_CONTRACT_SAMPLE > 0
        ? new ContractMonitor({ log: app.log, metrics, sample: config.UPSTREAM_CONTRACT_SAMPLE })
        : null
    // Read and checked now: a bad file stops the start, naming its line (see ./upstream/adapter.ts).
    const adapter = config.UPSTREAM_ADAPTER ? loadAdapter(config.UPSTREAM_ADAPTER) : null
    // One pool and one watch for the players' calls and the server's own (the push channel's).
    const pool = upstreamPool(config.UPSTREAM_URL, config.PROXY_CONNECTIONS)
    const watch = new UpstreamWatch(metrics)
    // The push channel, served here with the upstream reader's rounds and draws (docs/realtime.md#proxy-mode).
    // One process: an in-memory hub and the sole lease; with REDIS_URL the deployment's hub, and
    // a lease so that one process reads the upstream for all (docs/deploy.md).
    await app.register(proxyStream, {
      hub: proxyRealtime.hub ?? shared?.hub ?? new MemoryEventHub(config.STREAM_REPLAY_SIZE),
      lease: proxyRealtime.lease ?? shared?.lease('upstream-reader', READER_LEASE_TTL_MS) ?? soleLease,
      client: new UpstreamClient({
        dispatcher: pool,
        adapter,
        timeoutMs: UPSTREAM_OWN_CALL_TIMEOUT_MS,
        onAnswer: (status, ms) => watch.answered(status, ms),
        onFailure: (err) => watch.failed(err),
      }),
      heartbeatMs: config.STREAM_HEARTBEAT_MS,
      metrics,
      faults: app.faults.streamFaults,
      ...(proxyRealtime.readerTimers ? { readerTimers: proxyRealtime.readerTimers } : {}),
      ...(proxyRealtime.onReader ? { onReader: proxyRealtime.onReader } : {}),
      ...(proxyRealtime.readerNow ? { reader: { now: proxyRealtime.readerNow } } : {}),
    })
    await app.register(upstreamProxy, {
      monitor,
      adapter,
      pool,
      watch,
      refuseNonConforming: config.UPSTREAM_NONCONFORMING === 'refuse',
      upstream: config.UPSTREAM_URL,
      connections: config.PROXY_CONNECTIONS,
      bodyLimit: config.BODY_LIMIT,
      readyWithinMs: config.READY_UPSTREAM_MS,
      limits: rateLimits(config),
      health,
      metrics,
    })
  }

  if (config.MODE === 'emulator' || config.EMU_ADMIN_TOKEN) {
    // The fault layer guards /__emu: the token when one is set, else this machine only (AdminAccess).
    // Each control route sits at its contract's full path (shared/emu-contract/).
    await app.register(controlRoutes, { config, clock })
    if (!emu && config.REDIS_URL) {
      // Several proxy processes share the tester's set-up through Redis (docs/testing.md#several-processes).
      const connection = connectFaultRedis(config.REDIS_URL)
      const shared = new SharedFaults(app.faults, clock, { ...connection, log: app.log })
      await shared.start()
      app.addHook('onClose', async () => {
        shared.stop()
        await connection.close()
      })
    }
    await app.register(upstreamControlRoutes, { config, monitor })
    if (emu) {
      await app.register(gamesControlRoutes, { games: emu.games })
      await app.register(walletControlRoutes, { wallet: emu.wallet, ledger: emu.ledger })
    }
    await app.register(controlDocs)
  }

  await app.register(apiDocs)
  await app.register(staticClient, { dist: config.CLIENT_DIST, methodsOf })
  return app
}
