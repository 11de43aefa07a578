import type { FastifyInstance } from 'fastify'
import { type GamesConfig, gamesConfigSchema } from '../../../shared/games/config'
import type { Config } from '../../config'
import { loadFixture } from '../fixtures'
import type { Seeder } from '../seed'
import { BetAddressRepository } from './bet-address-repository'
import { GameService } from './game-service'

const services = new WeakMap<object, GameService>()

export const loadGamesConfig = (fixturesDir: string): GamesConfig =>
  loadFixture(fixturesDir, 'games.json', gamesConfigSchema)

/** Bet addresses bound at seed time, by the player's phone (skipped when no such player was seeded). */
export const gamesSeeder =
  (games: GamesConfig): Seeder =>
  async ({ now }) =>
  (db) => {
    const repo = new BetAddressRepository(db)
    for (const a of games.bet_addresses) {
      // Demo data for whichever players exist: another seed (a scenario's) may not have this one.
      const playerId = db.prepare('SELECT id FROM players WHERE phone = ?').pluck().get(a.phone)
      if (typeof playerId === 'number') repo.insert(playerId, a.address, a.label, now)
    }
  }

/**
 * The one GameService of an emulator, shared by the /api routes and the /__emu routes. Made on
 * first call, which also registers the draw job with the ticker and the seeder.
 */
export function gamesOf(app: FastifyInstance, config: Config): GameService {
  const emu = app.emu
  const have = services.get(emu)
  if (have) return have
  const games = loadGamesConfig(config.FIXTURES_DIR)
  const service = new GameService(emu.db, emu.clock, emu.ledger, games, config.GAME_CHAIN_LENGTH, app.log)
  services.set(emu, service)
  emu.addSeeder(gamesSeeder(games))
  emu.ticker.register('games', (now) => service.catchUp(now))
  return service
}
