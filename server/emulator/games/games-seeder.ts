import { type GamesConfig, gamesConfigSchema } from '@shared/games/config'
import type { AccountRepository } from '../account/account-repository'
import { loadFixture } from '../fixtures'
import type { Seeder } from '../seed'
import type { BetAddressRepository } from './bet-address-repository'

export const loadGamesConfig = (fixturesDir: string): GamesConfig =>
  loadFixture(fixturesDir, 'games.json', gamesConfigSchema)

/** Bet addresses bound at seed time, by the player's phone (skipped when no such player was seeded). */
export const gamesSeeder =
  (games: GamesConfig, accounts: AccountRepository, repo: BetAddressRepository): Seeder =>
  async ({ now }) =>
  () => {
    for (const a of games.bet_addresses) {
      // Demo data for whichever players exist: another seed (a scenario's) may not have this one.
      const player = accounts.findByPhone(a.phone)
      if (player) repo.insert(player.id, a.address, a.label, now)
    }
  }
