import { TOKEN_HEADER } from '@shared/constants'
import { userInfo } from '@shared/contract/account'
import { PLAYER_ID_PARAM } from '@shared/contract/stream-route'
import type { FastifyBaseLogger, FastifyPluginAsync, FastifyRequest } from 'fastify'
import { ApiError, invalidInput, notFound, sessionExpired } from '../http/api-error'
import type { Metrics } from '../ops/metrics'
import { forwardingHeaders } from '../plugins/upstream-proxy'
import type { UpstreamClient } from '../upstream/upstream-client'
import type { EventHub } from './event-hub'
import type { Lease } from './lease'
import { type StreamTimers, streamRoutes } from './stream-routes'
import type { StreamFaultHook } from './stream-tap'
import { type ReaderOptions, type ReaderTimers, UpstreamReader, upstreamRoundSource } from './upstream-reader'

export interface ProxyStreamOptions {
  /** Where the reader publishes and the streams subscribe (in memory for one process; a shared one across several). */
  readonly hub: EventHub
  /** Which process reads the upstream (soleLease for one process). */
  readonly lease: Lease
  /** The proxy's own upstream client (its pool, the adapter). */
  readonly client: UpstreamClient
  readonly heartbeatMs: number
  readonly metrics: Metrics | null
  readonly readerTimers?: ReaderTimers
  readonly streamTimers?: StreamTimers
  /** The reader's settings beyond the defaults (tests, benchmarks). */
  readonly reader?: Partial<
    Pick<ReaderOptions, 'drawDelayMs' | 'retryMs' | 'stalledMs' | 'games' | 'now' | 'lingerMs'>
  >
  /** Called with the reader once built (tests and benchmarks count its calls). */
  readonly onReader?: (reader: UpstreamReader) => void
  /** The tester's stream faults (server/fault/stream-faults.ts), as in emulator mode. */
  readonly faults?: StreamFaultHook
}

/**
 * The player id the app sends with its stream (`?player_id=`): the upstream's user-info endpoint
 * wants it, as every call of the app does.
 */
function playerIdOf(request: FastifyRequest): number {
  const raw = (request.query as Record<string, unknown> | undefined)?.[PLAYER_ID_PARAM]
  const text = typeof raw === 'string' ? raw : ''
  if (!/^[1-9]\d{0,14}$/.test(text)) throw invalidInput(`${PLAYER_ID_PARAM} 参数错误`)
  return Number(text)
}

/**
 * The session check of a proxy-mode stream: asked of the upstream once, when the stream opens, with
 * the player's token and id (its user-info endpoint, through the adapter when one is set). Never
 * again while the stream is open: upstream calls must not grow with open streams.
 */
export async function upstreamSession(
  request: FastifyRequest,
  client: UpstreamClient,
  log: FastifyBaseLogger,
): Promise<void> {
  const token = request.headers[TOKEN_HEADER]
  if (typeof token !== 'string' || token === '') throw sessionExpired()
  const playerId = playerIdOf(request)
  const outcome = await client.call(
    userInfo,
    { player_id: String(playerId) },
    { [TOKEN_HEADER]: token, ...forwardingHeaders(request) },
  )
  if (outcome.kind === 'session_lost') throw sessionExpired()
  if (outcome.kind === 'missing') {
    log.warn(
      { status: outcome.status },
      'the upstream does not serve user info: the push channel cannot check sessions',
    )
    throw notFound()
  }
  if (outcome.kind === 'refused') throw new ApiError(outcome.code, outcome.msg)
  request.player = { id: outcome.data.player_id, token }
}

/**
 * Proxy mode's push channel (docs/realtime.md#proxy-mode): `GET /api/stream` served here, not
 * forwarded, with the round and draw events of the upstream reader, which reads the upstream once
 * per game per draw for every stream of this process (and, with a shared hub and lease, of the
 * deployment). The streams carry no player events (`player_events: false` in the snapshot); the
 * app reads the player's data itself after a draw of a game with bets pending.
 */
export const proxyStream: FastifyPluginAsync<ProxyStreamOptions> = async (app, opts) => {
  if (!app.hasRequestDecorator('player')) app.decorateRequest('player', null)
  const reader = new UpstreamReader({
    source: upstreamRoundSource(opts.client),
    hub: opts.hub,
    lease: opts.lease,
    log: app.log,
    metrics: opts.metrics,
    ...(opts.readerTimers ? { timers: opts.readerTimers } : {}),
    ...opts.reader,
  })
  opts.onReader?.(reader)
  app.addHook('preClose', async () => {
    if (!reader.started) return
    reader.stop()
    await opts.lease
      .release()
      .catch((err: unknown) => app.log.warn({ err }, 'releasing the reader lease failed'))
  })
  await app.register(streamRoutes, {
    hub: opts.hub,
    playerEvents: false,
    authenticate: (request) => upstreamSession(request, opts.client, request.log),
    // Not asked of the upstream again: the app learns the session's end from its own calls.
    sessionState: () => 'live',
    now: Date.now,
    heartbeatMs: opts.heartbeatMs,
    metrics: opts.metrics,
    // The upstream is read while this process has a stream open (and a while after the last closes).
    onStreams: (open) => reader.streamsOpen(open),
    ...(opts.streamTimers ? { timers: opts.streamTimers } : {}),
    ...(opts.faults ? { faults: opts.faults } : {}),
  })
}
