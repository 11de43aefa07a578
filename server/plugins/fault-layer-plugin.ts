import fp from 'fastify-plugin'
import type { JournalEntry } from '../../shared/emu-control'
import type { EmuClock } from '../emulator/clock'
import { FaultLayer } from '../fault/fault-layer'

declare module 'fastify' {
  interface FastifyInstance {
    faults: FaultLayer
  }
  interface FastifyRequest {
    /** Which fault-layer decision applied to this request, for the log and the journal. */
    faultNote: string | null
    truncateReply: boolean
    /** This request's journal entry, while the journal is on. */
    journalEntry: JournalEntry | null
    /** Completes the journal entry (idempotent). */
    journalDone: (() => void) | null
  }
}

const isApi = (url: string) => url === '/api' || url.startsWith('/api/') || url.startsWith('/api?')
const isControl = (url: string) => url === '/__emu' || url.startsWith('/__emu/') || url.startsWith('/__emu?')

/** The fault layer in front of /api, the same in both modes. */
export const faultLayerPlugin = fp(
  async (app, opts: { clock: EmuClock }) => {
    const { clock } = opts
    const layer = new FaultLayer(clock)
    app.decorate('faults', layer)
    app.decorateRequest('faultNote', null)
    app.decorateRequest('truncateReply', false)
    app.decorateRequest('journalEntry', null)
    app.decorateRequest('journalDone', null)
    app.addHook('onRequest', async (request, reply) => {
      if (isApi(request.url)) return layer.handle(request, reply)
      // Root-level, so it guards every domain's /__emu routes, whoever registers them.
      if (isControl(request.url)) return layer.checkAdmin(request, reply)
    })
    // A scope with its own clock: from here on the request's deadline checks read it through
    // requestNow(). Entered again after the body is parsed, since parsing runs in the socket's context.
    const enterScopeClock = (
      request: Parameters<typeof FaultLayer.scopeOf>[0],
      _reply: unknown,
      done: () => void,
    ) => {
      if (!isApi(request.url)) return done()
      clock.runInScope(FaultLayer.scopeOf(request), done)
    }
    app.addHook('onRequest', enterScopeClock)
    app.addHook('preValidation', enterScopeClock)
    // Callback-style hooks: no promise per request on the common path.
    app.addHook('onSend', (request, reply, payload, done) => {
      if (!request.journalEntry && !request.truncateReply) return done(null, payload)
      layer.onSend(request, reply, payload).then(
        (out) => done(null, out),
        (err: Error) => done(err),
      )
    })
    app.addHook('onResponse', (request, _reply, done) => {
      request.journalDone?.()
      done()
    })
    // Hanging requests would keep a graceful shutdown waiting forever.
    app.addHook('preClose', async () => layer.closeHung())
  },
  { name: 'fault-layer' },
)
