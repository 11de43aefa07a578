import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { emuTransferBody } from '../../../shared/contract/games'
import { GAME_CODES } from '../../../shared/games/config'
import type { Config } from '../../config'
import { gamesOf } from '../../emulator/games/games-module'
import { ok } from '../../http/envelope'

const ADMIN_HEADER = 'x-emu-admin-token'

/**
 * The games for testers: `POST /__emu/transfers` brings a transfer bet the way the chain would
 * (from a bound bet address to a receiving address; no session needed). Draws follow the clock
 * (`PUT /__emu/clock`, `POST /__emu/clock/advance`).
 */
export async function gamesControlRoutes(app: FastifyInstance, opts: { config: Config }): Promise<void> {
  const { config } = opts
  const games = gamesOf(app, config)
  const r = app.withTypeProvider<ZodTypeProvider>()

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (config.EMU_ADMIN_TOKEN && request.headers[ADMIN_HEADER] !== config.EMU_ADMIN_TOKEN) {
      reply.code(403).send({ code: 403, msg: `缺少或错误的 ${ADMIN_HEADER}`, data: null })
      return reply
    }
  })

  r.post('/transfers', { schema: { body: emuTransferBody } }, async (request) =>
    ok(games.transfer(request.body, null)),
  )

  /** The chain's commitment and each game's draw cursor (ms of the emulator clock drawn up to). */
  r.get('/games', async () =>
    ok({
      commitment: games.commitment(),
      cursors: Object.fromEntries(GAME_CODES.map((g) => [g, games.repo.cursor(g) ?? null])),
    }),
  )
}
