import type { FastifyInstance } from 'fastify'
import {
  betAddresses,
  betHistory,
  bindBetAddress,
  currentRound,
  deleteBetAddress,
  gameCommitment,
  gameResults,
  gameRules,
  listGames,
  placeBets,
  sendTransferBet,
  transferHistory,
  updateBetAddress,
  verifyRound,
} from '../../../shared/contract/games'
import { GAME_CODES } from '../../../shared/games/config'
import { contractRoute } from '../../http/contract-route'
import type { GameService } from './game-service'

const DEFAULT_PAGE_SIZE = 20

/** The games: lobby, rounds, results, betting, history, rules, verification, bet addresses, transfers. */
export async function gamesRoutes(app: FastifyInstance, opts: { games: GameService }): Promise<void> {
  const { games } = opts
  // A fresh database gets its chain (about 2 s for a million links) just after the server starts
  // listening, rather than inside the first game request. Tests that only inject never pay for it.
  app.addHook('onListen', async () => {
    setImmediate(() => {
      try {
        games.ensureChain()
      } catch (err) {
        app.log.error({ err }, 'games: could not make the hash chain')
      }
    })
  })

  contractRoute(app, listGames, () => ({ list: GAME_CODES.map((g) => games.summary(g)) }))
  contractRoute(app, currentRound, ({ query }) => games.current(query.game))
  contractRoute(app, gameResults, ({ query }) =>
    games.results(query.game, query.page ?? 1, query.page_size ?? DEFAULT_PAGE_SIZE),
  )
  contractRoute(
    app,
    placeBets,
    ({ player, body }) => games.placeBets(player.id, body.game, body.round_id, body.bets),
    { atomic: true },
  )
  contractRoute(app, betHistory, ({ player, query }) =>
    games.history(player.id, query, query.page ?? 1, query.page_size ?? DEFAULT_PAGE_SIZE),
  )
  contractRoute(app, gameRules, ({ query }) => games.rules(query.game))
  contractRoute(app, gameCommitment, () => games.commitment())
  contractRoute(app, verifyRound, ({ query }) => games.verify(query.game, query.round_id))

  contractRoute(app, betAddresses, ({ player }) => games.listAddresses(player.id))
  contractRoute(app, bindBetAddress, ({ player, body }) =>
    games.bindAddress(player.id, body.address, body.label),
  )
  contractRoute(app, updateBetAddress, ({ player, body }) => games.updateAddress(player.id, body.id, body))
  contractRoute(app, deleteBetAddress, ({ player, body }) => games.deleteAddress(player.id, body.id))
  contractRoute(app, sendTransferBet, ({ player, body }) => games.transfer(body, player.id))
  contractRoute(app, transferHistory, ({ player, query }) =>
    games.transfers(player.id, query.page ?? 1, query.page_size ?? DEFAULT_PAGE_SIZE),
  )
}
