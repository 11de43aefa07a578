import type { Seeder } from '../seed'
import { loadWalletFixture, type WalletSettingsHolder } from './wallet-settings'

/**
 * Re-reads fixtures/wallet.json (so a reset also drops settings a tester changed) and binds the
 * fixture's withdrawal addresses. Runs after the account seeder, whose players it looks up by phone.
 */
export const walletSeeder =
  (settings: WalletSettingsHolder): Seeder =>
  async ({ fixturesDir, now }) => {
    const fixture = loadWalletFixture(fixturesDir)
    return (db) => {
      settings.replace(fixture)
      const playerId = db.prepare<[string], number>('SELECT id FROM players WHERE phone = ?').pluck()
      const bind = db.prepare(
        'INSERT INTO withdrawal_addresses (player_id, address, label, is_default, created_at) VALUES (?, ?, ?, ?, ?)',
      )
      for (const a of fixture.seed.addresses) {
        const id = playerId.get(a.phone)
        if (id === undefined) throw new Error(`fixture wallet.json: no player with phone ${a.phone}`)
        bind.run(id, a.address, a.label, a.is_default ? 1 : 0, now)
      }
    }
  }
