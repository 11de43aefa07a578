import multipart from '@fastify/multipart'
import { IDEMPOTENCY_HEADER } from '@shared/constants'
import type { BytesEndpoint, DataOf, Endpoint } from '@shared/contract/endpoint'
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify'
import type { z } from 'zod'
import { commitGrouped } from '../db/group-commit'
import type { AuthedPlayer } from '../plugins/emulator-plugin'
import { ok } from './envelope'
import type { RateLimit } from './rate-limits'

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined

export interface HandlerInput<E extends Endpoint> {
  readonly query: Parsed<E['query']>
  readonly body: Parsed<E['body']>
  /** The session's player: always set on endpoints with `auth: true`. */
  readonly player: E['auth'] extends true ? AuthedPlayer : AuthedPlayer | null
  readonly request: FastifyRequest
}

export interface RouteExtras {
  /**
   * Per-route rate limit: this many calls per window for one client address, and what the limit
   * does when its shared counts (Redis, docs/deploy.md) cannot be read: let calls through (`open`)
   * or refuse them (`closed`).
   */
  readonly rateLimit?: RateLimit
  /**
   * The handler is synchronous and does all its work in the database: its writes share one commit
   * with the calls that arrived together (see ../db/group-commit.ts), and with an Idempotency-Key
   * the key, the writes and the answer commit together (see ./idempotency.ts).
   */
  readonly atomic?: boolean
}

/** A route's limit as @fastify/rate-limit takes it: a fail-open limit skips a store that fails. */
function rateLimitOptions(limit: NonNullable<RouteExtras['rateLimit']>) {
  return { max: limit.max, timeWindow: limit.timeWindow, skipOnError: limit.whenStoreDown === 'open' }
}

/** How multipart bodies are read: fields only, no file uploads. */
const MULTIPART_OPTIONS = {
  attachFieldsToBody: 'keyValues',
  limits: { fields: 20, fieldSize: 64 * 1024, files: 0, parts: 20 },
} as const

/**
 * Registers an emulator route from its contract object: the session is checked first when the
 * contract says so, then the query and body schemas validate before the handler runs, and the handler's
 * return value goes out as `data` in a success envelope. Endpoints whose contract says
 * `idempotent: true` honour an `Idempotency-Key` header (see ./idempotency.ts).
 *
 * Bodies may be urlencoded or JSON on every route (the parsers are the scope's); multipart is read
 * only where the contract says `encoding: 'multipart'`. Those routes get a scope of their own,
 * because @fastify/multipart adds an onRequest and an onResponse hook to every route beside it.
 */
export function contractRoute<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: (input: HandlerInput<E>) => DataOf<E> | Promise<DataOf<E>>,
  extras: RouteExtras = {},
): void {
  if (endpoint.encoding === 'multipart') {
    app.register(async (scope) => {
      await scope.register(multipart, MULTIPART_OPTIONS)
      // After the plugin's own preValidation hook: the body was read. An error before it is the
      // body's (see readingMultipart in ./error-handler.ts).
      scope.addHook('preParsing', (request, _reply, payload, done) => {
        request.readingMultipart = true
        done(null, payload)
      })
      scope.addHook('preValidation', (request, _reply, done) => {
        request.readingMultipart = false
        done()
      })
      addRoute(scope, endpoint, handler, extras)
    })
    return
  }
  addRoute(app, endpoint, handler, extras)
}

function addRoute<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: (input: HandlerInput<E>) => DataOf<E> | Promise<DataOf<E>>,
  extras: RouteExtras,
): void {
  const schema: Record<string, z.ZodType> = {}
  if (endpoint.query) schema.querystring = endpoint.query
  if (endpoint.body) schema.body = endpoint.body
  const options: RouteShorthandOptions = { schema }
  if (extras.rateLimit) options.config = { rateLimit: rateLimitOptions(extras.rateLimit) }
  if (endpoint.auth) {
    const authenticate = app.authenticate
    // onRequest: before the body is read, parsed (multipart included) or validated, so a call without
    // a session learns nothing about the endpoint's fields and costs no parsing.
    const check = (request: FastifyRequest, done: (err?: Error) => void) => {
      try {
        authenticate(request)
      } catch (err) {
        return done(err as Error)
      }
      done()
    }
    // A tester's fault rule that waits for the body (a body matcher or a template) may answer the
    // call itself, session or not, as it would in front of a real upstream: the layer reads the
    // body, and the session is checked once the rule lets the call through.
    options.onRequest = (request, _reply, done) => (request.faultFacts ? done() : check(request, done))
    options.preValidation = (request, _reply, done) =>
      request.faultFacts && request.player === null ? check(request, done) : done()
  }
  app.route({
    ...options,
    method: endpoint.method,
    url: endpoint.path,
    // Not async: a synchronous handler's answer is sent without a promise in between (Fastify sends
    // a returned value, and answers a throw with the error handler).
    handler: (request, reply) => {
      const input = {
        query: request.query,
        body: request.body,
        player: request.player,
        request,
      } as HandlerInput<E>
      const key = request.headers[IDEMPOTENCY_HEADER]
      if (endpoint.idempotent && typeof key === 'string') {
        const call = {
          playerId: request.player?.id ?? null,
          key,
          endpointId: endpoint.id,
          body: request.body,
        }
        const store = app.emu.idempotency
        if (extras.atomic) {
          return store.runAtomic(call, reply, () => atomicAnswer(handler(input)))
        }
        return store.run(call, reply, async () => ok(await handler(input)))
      }
      // An atomic handler shares its commit with the calls that arrived with it.
      if (extras.atomic) return commitGrouped(app.emu.db, () => atomicAnswer(handler(input)))
      const data = handler(input)
      return data instanceof Promise ? data.then(ok) : ok(data)
    },
  })
}

/** The envelope of an atomic handler's answer; a promise means the handler is not synchronous. */
function atomicAnswer<T>(data: T | Promise<T>) {
  if (data instanceof Promise) throw new TypeError('an atomic handler must be synchronous')
  return ok(data)
}

export interface BytesHandlerInput<E extends BytesEndpoint> {
  readonly params: Parsed<E['params']>
  readonly query: Parsed<E['query']>
  readonly request: FastifyRequest
  readonly reply: FastifyReply
}

/**
 * Registers a route that answers bytes (an image) from its contract object: the path parameters
 * and the query validate against the contract's schemas before the handler runs, and the handler
 * sends the answer itself. A refusal it throws is answered in the envelope, as on every route.
 */
export function bytesRoute<E extends BytesEndpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: (input: BytesHandlerInput<E>) => Promise<FastifyReply>,
  extras: Pick<RouteExtras, 'rateLimit'> = {},
): void {
  const schema: Record<string, z.ZodType> = {}
  if (endpoint.params) schema.params = endpoint.params
  if (endpoint.query) schema.querystring = endpoint.query
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    schema,
    ...(extras.rateLimit ? { config: { rateLimit: rateLimitOptions(extras.rateLimit) } } : {}),
    handler: (request, reply) =>
      handler({ params: request.params, query: request.query, request, reply } as BytesHandlerInput<E>),
  })
}
