import { join } from 'node:path'
import { type Db, immediate, openDatabase } from '@server/db/database'
import { migrate } from '@server/db/migrations'
import { ApiError } from '@server/http/api-error'
import { ROOT_DIR } from '@server/paths'
import { exchangeQuoteMicro } from '@shared/contract/wallet'
import { toMicro } from '@shared/money'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { AccountRepository } from '../account/account-repository'
import { PasswordGuard } from '../account/password-guard'
import { EmuClock } from '../clock'
import { InsufficientFundsError } from '../ledger/insufficient-funds'
import { LedgerRepository } from '../ledger/ledger-repository'
import { ProtectionGuard } from '../protection/protection-guard'
import { WalletDomain } from './wallet-domain'
import { loadWalletFixture, WalletSettingsHolder } from './wallet-settings'

/**
 * Random sequences of everything that moves money — top-up and its confirmation, bet debits,
 * payouts, withdrawals with approval or rejection, exchanges, the clock running the timed jobs —
 * against a simple model. After every step: balance == Σ ledger, nothing negative, and both
 * balances equal the model's.
 */

const fixture = loadWalletFixture(join(ROOT_DIR, 'fixtures'))
const USDT = 1_000_000

type Op =
  | { kind: 'topup'; micro: number }
  | { kind: 'confirm'; pick: number }
  | { kind: 'bet'; micro: number }
  | { kind: 'payout'; micro: number }
  | { kind: 'withdraw'; micro: number }
  | { kind: 'approve'; pick: number }
  | { kind: 'reject'; pick: number }
  | { kind: 'exchange'; from: 'USDT' | 'TRX'; micro: number }
  | { kind: 'tick'; ms: number }

const micro = fc.oneof(
  fc.integer({ min: 1, max: 400 }).map((n) => n * USDT),
  fc.integer({ min: 1, max: 400 * USDT }),
)
const pick = fc.nat(20)
const op: fc.Arbitrary<Op> = fc.oneof(
  micro.map((m) => ({ kind: 'topup' as const, micro: m })),
  pick.map((p) => ({ kind: 'confirm' as const, pick: p })),
  micro.map((m) => ({ kind: 'bet' as const, micro: m })),
  micro.map((m) => ({ kind: 'payout' as const, micro: m })),
  micro.map((m) => ({ kind: 'withdraw' as const, micro: m })),
  pick.map((p) => ({ kind: 'approve' as const, pick: p })),
  pick.map((p) => ({ kind: 'reject' as const, pick: p })),
  fc
    .tuple(fc.constantFrom('USDT' as const, 'TRX' as const), micro)
    .map(([from, m]) => ({ kind: 'exchange' as const, from, micro: m })),
  fc.integer({ min: 1_000, max: 400_000 }).map((ms) => ({ kind: 'tick' as const, ms })),
)

function setup() {
  const db = openDatabase(':memory:')
  migrate(db)
  const clock = new EmuClock()
  clock.freeze(Date.UTC(2030, 0, 1))
  const ledger = new LedgerRepository(db)
  const wallet = new WalletDomain({
    db,
    clock,
    ledger,
    accounts: new AccountRepository(db, ledger),
    payGuard: new PasswordGuard(db, 'pay', () => clock.worldNow()),
    protection: new ProtectionGuard(db),
    settings: new WalletSettingsHolder(fixture),
  })
  const playerId = Number(
    db
      .prepare(
        `INSERT INTO players (phone, nickname, password_hash, invite_code, created_at) VALUES ('13000000000', 'p', 'x', 'PROP01', 0)`,
      )
      .run().lastInsertRowid,
  )
  const walletId = immediate(db, () =>
    wallet.withdrawals.withdrawals.bind(playerId, 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 'w', true, 0),
  )
  return { db, clock, ledger, wallet, playerId, walletId }
}

const balances = (db: Db, id: number) =>
  db
    .prepare<[number], { usdt: number; trx: number }>(
      'SELECT balance_micro AS usdt, trx_balance_micro AS trx FROM players WHERE id = ?',
    )
    .get(id)

/** Runs a step that may be refused; a refusal must be an expected business refusal. */
function attempt<T>(fn: () => T): T | undefined {
  try {
    return fn()
  } catch (err) {
    if (err instanceof ApiError || err instanceof InsufficientFundsError) return undefined
    throw err
  }
}

describe('wallet ledger invariant', () => {
  it('keeps balance == Σ ledger, never negative, equal to the model, under random operations', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 40 }), (ops) => {
        const { db, clock, ledger, wallet, playerId, walletId } = setup()
        const model = { usdt: 0, trx: 0 }
        const feeMicro = wallet.ctx.settings.current.withdrawal.feeMicro
        const pendingDeposits = () =>
          wallet.deposits.deposits.list(
            playerId,
            { from: null, to: null, status: 'pending' },
            { page: 1, pageSize: 100 },
          ).rows
        const pendingWithdrawals = () =>
          wallet.withdrawals.withdrawals.list(
            playerId,
            { from: null, to: null, status: 'pending' },
            { page: 1, pageSize: 100 },
          ).rows
        try {
          for (const o of ops) {
            switch (o.kind) {
              case 'topup':
                attempt(() => wallet.deposits.create(playerId, o.micro))
                break
              case 'confirm': {
                const list = pendingDeposits()
                const target = list[o.pick % Math.max(1, list.length)]
                if (target && wallet.deposits.confirm(target.id)) model.usdt += target.amount_micro
                break
              }
              case 'tick': {
                clock.advance(o.ms)
                const due = pendingDeposits().filter((d) => d.due_at <= clock.now())
                wallet.runDue(clock.now())
                for (const d of due) {
                  expect(wallet.deposits.deposits.find(d.id)?.status).toBe('confirmed')
                  model.usdt += d.amount_micro
                }
                break
              }
              case 'bet':
              case 'payout': {
                const amount = o.kind === 'bet' ? -o.micro : o.micro
                const done = attempt(() =>
                  immediate(db, () =>
                    ledger.post({
                      playerId,
                      currency: 'USDT',
                      type: o.kind,
                      amountMicro: amount,
                      at: clock.now(),
                    }),
                  ),
                )
                if (done) model.usdt += amount
                break
              }
              case 'withdraw':
                if (attempt(() => wallet.withdrawals.hold(playerId, walletId, o.micro)))
                  model.usdt -= o.micro + feeMicro
                break
              case 'approve':
              case 'reject': {
                const list = pendingWithdrawals()
                const target = list[o.pick % Math.max(1, list.length)]
                if (!target) break
                if (o.kind === 'approve') wallet.withdrawals.approve(target.id)
                else if (wallet.withdrawals.reject(target.id))
                  model.usdt += target.amount_micro + target.fee_micro
                break
              }
              case 'exchange': {
                const to = o.from === 'USDT' ? 'TRX' : 'USDT'
                const res = attempt(() => wallet.exchange.convert(playerId, o.from, to, o.micro))
                if (!res) break
                const pair = wallet.ctx.settings.current.exchange.pairs.find((p) => p.from === o.from)
                const received = exchangeQuoteMicro(o.micro, pair?.rate ?? '0')
                expect(toMicro(res.received)).toBe(received)
                if (o.from === 'USDT') {
                  model.usdt -= o.micro
                  model.trx += received
                } else {
                  model.trx -= o.micro
                  model.usdt += received
                }
                break
              }
            }
            expect(ledger.drift()).toEqual([])
            const b = balances(db, playerId)
            expect(b).toEqual(model)
            expect(b?.usdt).toBeGreaterThanOrEqual(0)
            expect(b?.trx).toBeGreaterThanOrEqual(0)
          }
        } finally {
          db.close()
        }
      }),
      { numRuns: 150 },
    )
  })
})
