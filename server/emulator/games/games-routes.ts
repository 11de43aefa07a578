import { contractRoute } from '@server/http/contract-route'
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
} from '@shared/contract/games'
import { GAME_CODES } from '@shared/games/config'
import type { FastifyInstance } from 'fastify'
import type { GamesDomain } from './games-domain'

const DEFAULT_PAGE_SIZE = 20

/** The games: lobby, rounds, results, betting, history, rules, verification, bet addresses, transfers. */
export async function gamesRoutes(app: FastifyInstance, opts: { games: GamesDomain }): Promise<void> {
  const { rounds, bets, transfers } = opts.games
  // A fresh database gets its chain (about 2 s for a million links) just after the server starts
  // listening, rather than inside the first game request. Tests that only inject never pay for it.
  app.addHook('onListen', async () => {
    setImmediate(() => {
      try {
        rounds.ensureChain()
      } catch (err) {
        app.log.error({ err }, 'games: could not make the hash chain')
      }
    })
  })

  contractRoute(app, listGames, () => ({ list: GAME_CODES.map((g) => rounds.summary(g)) }))
  contractRoute(app, currentRound, ({ query }) => rounds.current(query.game))
  contractRoute(app, gameResults, ({ query }) =>
    rounds.results(query.game, query.page ?? 1, query.page_size ?? DEFAULT_PAGE_SIZE),
  )
  contractRoute(
    app,
    placeBets,
    ({ player, body }) => bets.placeBets(player.id, body.game, body.round_id, body.bets),
    { atomic: true },
  )
  contractRoute(app, betHistory, ({ player, query }) =>
    bets.history(player.id, query, query.page ?? 1, query.page_size ?? DEFAULT_PAGE_SIZE),
  )
  contractRoute(app, gameRules, ({ query }) => rounds.rules(query.game))
  contractRoute(app, gameCommitment, () => rounds.commitment())
  contractRoute(app, verifyRound, ({ query }) => rounds.verify(query.game, query.round_id))

  contractRoute(app, betAddresses, ({ player }) => transfers.listAddresses(player.id))
  contractRoute(app, bindBetAddress, ({ player, body }) =>
    transfers.bindAddress(player.id, body.address, body.label),
  )
  contractRoute(app, updateBetAddress, ({ player, body }) =>
    transfers.updateAddress(player.id, body.id, body),
  )
  contractRoute(app, deleteBetAddress, ({ player, body }) => transfers.deleteAddress(player.id, body.id))
  contractRoute(app, sendTransferBet, ({ player, body }) => transfers.transfer(body, player.id))
  contractRoute(app, transferHistory, ({ player, query }) =>
    transfers.transfers(player.id, query.page ?? 1, query.page_size ?? DEFAULT_PAGE_SIZE),
  )
}
