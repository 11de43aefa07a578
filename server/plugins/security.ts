import fastifyRateLimit, { type FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import { CODE } from '@shared/envelope'
import { SERVER_MSG } from '@shared/messages'
import type { FastifyInstance, FastifyReply } from 'fastify'
import fp from 'fastify-plugin'
import helmet from 'helmet'
import { ApiError } from '../http/api-error'
import { isCrossSiteWrite } from '../http/cross-site'
import { failure } from '../http/envelope'

/**
 * What a JSON answer needs (OWASP REST guidance): no sniffing, not framable, not loadable by
 * other origins, not cached. The document set (CSP directives for scripts, styles, frames…) means
 * nothing to a JSON body, and sending a dozen headers on every API answer costs measurable throughput.
 */
export const API_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
}

/**
 * What the build's hashed scripts and stylesheets need (/assets/ holds only those): no sniffing, not
 * loadable by other origins. The document set is the page's business: a script or stylesheet runs
 * under the policy of the page that loads it, so a CSP, frame options or HSTS on it only adds bytes
 * to every one of them, about 650 per answer, the entry script's included.
 */
export const ASSET_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'cross-origin-resource-policy': 'same-origin',
}

/** A state-changing call from a page on another site (see ../http/cross-site.ts), refused before anything runs. */
function refuseCrossSite(reply: FastifyReply): void {
  reply.code(403).send(failure(CODE.crossSite, SERVER_MSG.crossSite))
}

/**
 * Security headers (a CSP that allows no inline script on pages, API_HEADERS on every /api answer in
 * both modes, ASSET_HEADERS on the build's scripts and stylesheets), the refusal of cross-site
 * writes to /api and /__emu, and per-route rate limits that answer in the envelope, counted in
 * this process or, with `rateLimitStore`, for the whole deployment.
 */
export const security = fp(
  async (
    app: FastifyInstance,
    opts: {
      frameHosts: readonly string[]
      /** Where the limits count: this process's memory unless given (the deployment's Redis, docs/deploy.md). */
      rateLimitStore?: FastifyRateLimitStoreCtor | null
    },
  ) => {
    const pageHeaders = helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          // The service worker (sw.js) and the web app manifest, from the page's origin only.
          workerSrc: ["'self'"],
          manifestSrc: ["'self'"],
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
    // Decided by the route that handles the request (request.surface, see ./request-target.ts), not
    // by how its URL is spelled.
    app.addHook('onRequest', (request, reply, done) => {
      const surface = request.surface
      if (surface === 'api') {
        // Both modes: in proxy mode the upstream's answer is sent with these set over its own.
        reply.headers(API_HEADERS)
        if (isCrossSiteWrite(request)) return refuseCrossSite(reply)
      } else if (surface === 'control') {
        if (isCrossSiteWrite(request)) return refuseCrossSite(reply)
      } else if (surface === 'other') {
        // The build's hashed files (/assets/ holds nothing else) get their own small set.
        if (request.url.startsWith('/assets/')) reply.headers(ASSET_HEADERS)
        else return pageHeaders(request.raw, reply.raw, (err?: unknown) => done(err as Error | undefined))
      }
      // docs: Swagger UI sets its own, stricter CSP with hashes for its page; ops: plain text, set there.
      done()
    })
    await app.register(fastifyRateLimit, {
      global: false,
      ...(opts.rateLimitStore ? { store: opts.rateLimitStore } : {}),
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
