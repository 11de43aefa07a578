/**
 * One process of the concurrency test: its own SQLite connection to the shared database file,
 * spending one account with withdrawals (payment password and all, as the withdraw route runs them)
 * and bet debits (a ledger posting, as the games do). Prints one JSON line with the outcome of
 * every attempt.
 */

import { immediate, openDatabase } from '@server/db/database'
import { AccountRepository } from '@server/emulator/account/account-repository'
import { PasswordGuard } from '@server/emulator/account/password-guard'
import { EmuClock } from '@server/emulator/clock'
import { InsufficientFundsError } from '@server/emulator/ledger/insufficient-funds'
import { LedgerRepository } from '@server/emulator/ledger/ledger-repository'
import { ProtectionGuard } from '@server/emulator/protection/protection-guard'
import { ApiError } from '@server/http/api-error'
import { ROOT_DIR } from '@server/paths'
import { toMicro } from '@shared/money'
import { WalletDomain } from '../wallet-domain'
import { loadWalletFixture, WalletSettingsHolder } from '../wallet-settings'

export interface Outcome {
  readonly op: 'withdraw' | 'bet'
  readonly ok: boolean
  /** Micro-units the attempt takes from the balance when it succeeds. */
  readonly debitMicro: number
  readonly msg: string
}

const env = (name: string): string => {
  const v = process.env[name]
  if (!v) throw new Error(`${name} is required`)
  return v
}

async function main(): Promise<void> {
  const db = openDatabase(env('DB_PATH'))
  const clock = new EmuClock()
  const ledger = new LedgerRepository(db)
  const settings = new WalletSettingsHolder(loadWalletFixture(`${ROOT_DIR}/fixtures`))
  // Every process gives the right payment password, but the guard counts each check before its
  // hash is compared (password-guard.ts), so enough checks in flight at once would start its lock.
  // This test is about money, not the lock (password-locks.test.ts is): room for every check.
  settings.patch({ withdrawal: { pay_password_max_failures: 1000 } })
  const wallet = new WalletDomain({
    db,
    clock,
    ledger,
    accounts: new AccountRepository(db, ledger),
    payGuard: new PasswordGuard(db, 'pay', () => clock.worldNow()),
    protection: new ProtectionGuard(db),
    settings,
  })
  const playerId = Number(env('PLAYER_ID'))
  const walletId = Number(env('WALLET_ID'))
  const withdrawMicro = toMicro(env('WITHDRAW_AMOUNT'))
  const betMicro = Number(env('BET_MICRO'))
  const feeMicro = settings.current.withdrawal.feeMicro

  const outcomes: Outcome[] = []
  for (let i = 0; i < Number(env('ROUNDS')); i++) {
    try {
      await wallet.withdrawals.withdraw(playerId, walletId, withdrawMicro, env('PAY'))
      outcomes.push({ op: 'withdraw', ok: true, debitMicro: withdrawMicro + feeMicro, msg: '成功' })
    } catch (err) {
      if (!(err instanceof ApiError)) throw err
      outcomes.push({ op: 'withdraw', ok: false, debitMicro: withdrawMicro + feeMicro, msg: err.message })
    }
    try {
      immediate(db, () =>
        ledger.post({ playerId, currency: 'USDT', type: 'bet', amountMicro: -betMicro, at: clock.now() }),
      )
      outcomes.push({ op: 'bet', ok: true, debitMicro: betMicro, msg: '成功' })
    } catch (err) {
      if (!(err instanceof InsufficientFundsError)) throw err
      outcomes.push({ op: 'bet', ok: false, debitMicro: betMicro, msg: '余额不足' })
    }
  }
  db.close()
  process.stdout.write(`${JSON.stringify(outcomes)}\n`)
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`)
  process.exit(1)
})
