import type { preValidationHookHandler } from 'fastify'
import fp from 'fastify-plugin'
import type { EmuClock } from '../emulator/clock'
import { FaultLayer, type ShapeAction } from '../fault/fault-layer'
import type { JournalRecord } from '../fault/journal'
import type { RequestFacts } from '../fault/rule-store'
import type { TapSetup } from '../fault/stream-faults'
import { surfaceOf } from './request-target'

declare module 'fastify' {
  interface FastifyInstance {
    faults: FaultLayer
  }
  interface FastifyRequest {
    /** Which fault-layer decision applied to this request, for the log and the journal. */
    faultNote: string | null
    truncateReply: boolean
    /** An answer to send at a bandwidth, in slices or with a slow close. */
    shapeReply: ShapeAction | null
    /** This request's journal entry, while the journal is on. */
    journalEntry: JournalRecord | null
    /** Set when the fault layer's decision waits for the body (a rule tests body fields). */
    faultFacts: RequestFacts | null
    /** A stream action that fired on this stream's opening, for the stream's tap (server/fault/stream-faults.ts). */
    streamFault: TapSetup['fault']
  }
}

/** The fault layer in front of /api, the same in both modes. */
export const faultLayerPlugin = fp(
  async (app, opts: { clock: EmuClock; adminToken?: string | undefined }) => {
    const { clock } = opts
    const layer = new FaultLayer(clock, opts.adminToken)
    app.decorate('faults', layer)
    app.decorateRequest('faultNote', null)
    app.decorateRequest('truncateReply', false)
    app.decorateRequest('shapeReply', null)
    app.decorateRequest('journalEntry', null)
    app.decorateRequest('faultFacts', null)
    app.decorateRequest('streamFault', null)
    // One callback hook for /api: the decision is synchronous, and a request let through enters a
    // scope with its own clock, so that from here on its deadline checks read it through requestNow().
    app.addHook('onRequest', (request, reply, done) => {
      // Decided by the route that handles the request (see ./request-target.ts).
      const surface = request.surface
      if (surface === 'api') {
        const verdict = layer.handle(request, reply)
        // Answered, hung up or taken over by the layer: the request goes no further.
        if (verdict === true) return
        const enter = () => clock.runInScope(FaultLayer.scopeOf(request), done)
        if (verdict === undefined) return enter()
        // Answered by the layer once it had decided (a decision shared through Redis): no further.
        verdict.then((v) => (v === true ? undefined : enter()), done)
        return
      }
      // Root-level, so it guards every domain's /__emu routes, whoever registers them.
      if (surface === 'control' && layer.access.check(request, reply)) return
      done()
    })
    // Entered again after the body is parsed, since parsing runs in the socket's context. Only
    // routes that can take a body need it: a GET or HEAD runs on from onRequest without a break.
    const reenter: preValidationHookHandler = (request, _reply, done) =>
      clock.runInScope(FaultLayer.scopeOf(request), done)
    app.addHook('onRoute', (route) => {
      const methods = [route.method].flat()
      if (surfaceOf(route.url) !== 'api' || methods.every((m) => m === 'GET' || m === 'HEAD')) return
      route.preValidation = [reenter, ...[route.preValidation ?? []].flat()]
    })
    // The request's body: read whole when a rule's decision waits for it, else tapped for the
    // journal; either way passed on unchanged.
    const bodyLimit = app.initialConfig.bodyLimit ?? 1024 * 1024
    app.addHook('preParsing', (request, reply, payload, done) => {
      if (request.faultFacts) {
        layer.decideWithBody(request, reply, payload, bodyLimit).then(({ verdict, body }) => {
          if (verdict === true) return
          const enter = () => clock.runInScope(FaultLayer.scopeOf(request), () => done(null, body))
          if (verdict === undefined) return enter()
          verdict.then(
            (v) => (v === true ? undefined : enter()),
            (err: Error) => done(err),
          )
        }, done)
        return
      }
      if (!request.journalEntry) return done(null, payload)
      done(null, layer.tapRequestBody(request, payload))
    })
    // Callback-style hooks: no promise per request on the common path.
    app.addHook('onSend', (request, reply, payload, done) => {
      if (
        !request.journalEntry &&
        !request.truncateReply &&
        !request.shapeReply &&
        layer.recorders.size === 0
      )
        return done(null, payload)
      const out = layer.onSend(request, reply, payload)
      if (!(out instanceof Promise)) return done(null, out)
      out.then(
        (body) => done(null, body),
        (err: Error) => done(err),
      )
    })
    // Hanging requests would keep a graceful shutdown waiting forever.
    app.addHook('preClose', async () => layer.closeHung())
  },
  { name: 'fault-layer' },
)
