import fastifyHelmet from '@fastify/helmet'
import fastifyRateLimit from '@fastify/rate-limit'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { CODE } from '../../shared/envelope'
import { SERVER_MSG } from '../../shared/messages'
import { ApiError } from '../http/api-error'

/** Security headers with a CSP that allows no inline script, and per-route rate limits that answer in the envelope. */
export const security = fp(
  async (app: FastifyInstance, opts: { frameHosts: readonly string[] }) => {
    await app.register(fastifyHelmet, {
      // Swagger UI sets its own, stricter CSP on its routes.
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          mediaSrc: ["'self'", 'data:', 'blob:'],
          frameSrc: ["'self'", ...opts.frameHosts],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'self'"],
        },
      },
      crossOriginEmbedderPolicy: false,
    })
    await app.register(fastifyRateLimit, {
      global: false,
      errorResponseBuilder: (_request, context) =>
        new ApiError(
          CODE.rateLimited,
          `${SERVER_MSG.rateLimited}（${Math.ceil(context.ttl / 1000)} 秒后重试）`,
          429,
        ),
    })
  },
  { name: 'security' },
)
