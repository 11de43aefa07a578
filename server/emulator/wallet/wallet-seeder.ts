import type { AccountRepository } from '../account/account-repository'
import type { Seeder } from '../seed'
import { loadWalletFixture, type WalletSettingsHolder } from './wallet-settings'
import type { WithdrawalRepository } from './withdrawal-repository'

/**
 * Re-reads fixtures/wallet.json (so a reset also drops settings a tester changed) and binds the
 * fixture's withdrawal addresses. Runs after the account seeder, whose players it looks up by phone.
 */
export const walletSeeder =
  (settings: WalletSettingsHolder, accounts: AccountRepository, withdrawals: WithdrawalRepository): Seeder =>
  async ({ fixturesDir, now }) => {
    const fixture = loadWalletFixture(fixturesDir)
    return () => {
      settings.replace(fixture)
      for (const a of fixture.seed.addresses) {
        const player = accounts.findByPhone(a.phone)
        if (player === undefined) throw new Error(`fixture wallet.json: no player with phone ${a.phone}`)
        withdrawals.bind(player.id, a.address, a.label, a.is_default, now)
      }
    }
  }
