import fp from 'fastify-plugin'
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
  }
}

const isApi = (url: string) => url === '/api' || url.startsWith('/api/') || url.startsWith('/api?')

/** The fault layer in front of /api, the same in both modes. */
export const faultLayerPlugin = fp(
  async (app, opts: { clock: EmuClock }) => {
    const layer = new FaultLayer(opts.clock)
    app.decorate('faults', layer)
    app.decorateRequest('faultNote', null)
    app.decorateRequest('truncateReply', false)
    app.addHook('onRequest', async (request, reply) => {
      if (!isApi(request.url)) return
      return layer.handle(request, reply)
    })
    app.addHook('onSend', async (request, reply, payload) =>
      request.truncateReply ? FaultLayer.truncate(payload, reply) : payload,
    )
    // Hanging requests would keep a graceful shutdown waiting forever.
    app.addHook('preClose', async () => layer.closeHung())
  },
  { name: 'fault-layer' },
)
