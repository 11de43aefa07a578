import { controlRoute } from '@server/http/control-route'
import { emuTransfer, gamesChain } from '@shared/emu-contract/games'
import { GAME_CODES, type GameCode } from '@shared/games/config'
import type { FastifyInstance } from 'fastify'
import type { GamesDomain } from './games-domain'

/**
 * The games for testers: `POST /__emu/transfers` brings a transfer bet the way the chain would
 * (from a bound bet address to a receiving address; no session needed). Draws follow the clock
 * (`PUT /__emu/clock`, `POST /__emu/clock/advance`). The admin token, when configured, is
 * checked for every /__emu route by the fault layer.
 */
export async function gamesControlRoutes(app: FastifyInstance, opts: { games: GamesDomain }): Promise<void> {
  const { games } = opts

  controlRoute(app, emuTransfer, ({ body }) => games.transfers.transfer(body, null))

  /** The chain's commitment and each game's draw cursor (ms of the emulator clock drawn up to). */
  controlRoute(app, gamesChain, () => ({
    commitment: games.rounds.commitment(),
    cursors: Object.fromEntries(GAME_CODES.map((g) => [g, games.repo.cursor(g) ?? null])) as Record<
      GameCode,
      number | null
    >,
  }))
}
