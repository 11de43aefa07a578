import underPressure from '@fastify/under-pressure'
import { CODE } from '@shared/envelope'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { Config } from '../config'
import { failure } from '../http/envelope'
import type { Health } from '../ops/health'
import { envelopeClass, envelopeCodeOf, type Metrics, statusClass } from '../ops/metrics'
import { REQUEST_ID_HEADER } from '../ops/request-id'

declare module 'fastify' {
  interface FastifyInstance {
    /** Readiness: what /readyz answers, and the drain main.ts starts on SIGTERM. */
    health: Health
    /** The Prometheus metrics, when METRICS_PORT is set. */
    metrics: Metrics | null
  }
}

/** Seconds a shed request is told to wait before it tries again. */
export const SHED_RETRY_AFTER_S = 5

/** The message a player reads when the server sheds load (in the envelope, as every other refusal). */
export const SHED_MSG = '服务器繁忙，请稍后再试'

/**
 * What an operator needs on the players' port: `/livez` (the process answers) and `/readyz` (ready to
 * serve), small plain answers outside rate limits, faults and the journal; the request id on every
 * answer; load shedding (503 with Retry-After) before the process falls over; and, when metrics are
 * on, the request metrics (see ../ops/metrics.ts and docs/operations.md).
 */
export const operations = fp(
  async (app: FastifyInstance, opts: { config: Config; health: Health; metrics: Metrics | null }) => {
    const { config, health, metrics } = opts
    app.decorate('health', health)
    app.decorate('metrics', metrics)

    app.addHook('onRequest', (request, reply, done) => {
      reply.header(REQUEST_ID_HEADER, request.id)
      done()
    })

    const plain = {
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    }
    app.get('/livez', (_request, reply) => reply.headers(plain).send('ok\n'))
    app.get('/readyz', (request, reply) => {
      const reasons = health.notReady()
      metrics?.ready.set(reasons ? 0 : 1)
      if (!reasons) return reply.headers(plain).send('ready\n')
      request.log.debug({ reasons }, 'not ready')
      return reply
        .code(503)
        .headers(plain)
        .send(`not ready: ${reasons.join('; ')}\n`)
    })

    const maxDelay = config.PRESSURE_MAX_EVENT_LOOP_DELAY_MS
    const maxRss = config.PRESSURE_MAX_RSS_MB * 1024 * 1024
    if (maxDelay > 0 || maxRss > 0) {
      await app.register(underPressure, {
        maxEventLoopDelay: maxDelay,
        maxRssBytes: maxRss,
        sampleInterval: 500,
        retryAfter: SHED_RETRY_AFTER_S,
        // /livez and /readyz answer whatever the load: an overloaded process is alive, and its
        // readiness is for the balancer to read.
        pressureHandler: (request, reply, kind) => {
          if (request.surface === 'ops') return
          metrics?.shed.inc({ kind })
          request.log.warn({ kind }, 'under pressure: shedding a request')
          reply.code(503).header('retry-after', String(SHED_RETRY_AFTER_S))
          // A value returned is sent as the answer (the plugin's README; its types say void).
          return failure(CODE.unavailable, SHED_MSG) as unknown as undefined
        },
      })
    }

    if (!metrics) return
    app.addHook('onSend', (request, _reply, payload, done) => {
      if (request.surface === 'api')
        metrics.apiAnswers.inc({ code_class: envelopeClass(envelopeCodeOf(payload)) })
      done(null, payload)
    })
    app.addHook('onResponse', (request, reply, done) => {
      const pattern = request.routeOptions.url
      const route = pattern === undefined ? 'unmatched' : pattern === '/*' ? 'static' : pattern
      metrics.requestDuration.observe(
        { route, method: request.method, status_class: statusClass(reply.statusCode) },
        reply.elapsedTime / 1000,
      )
      if (reply.statusCode === 429) metrics.rateLimited.inc({ route })
      done()
    })
  },
  { name: 'operations', dependencies: ['request-target'] },
)
