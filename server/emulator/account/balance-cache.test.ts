import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Db, immediate, openDatabase } from '@server/db/database'
import { migrate } from '@server/db/migrations'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { LedgerRepository } from '../ledger/ledger-repository'
import { AccountRepository } from './account-repository'

/** Balance reads are reused briefly; no posting may ever be hidden by it in this process. */
describe('balance reads', () => {
  let dir: string
  let db: Db
  let other: Db
  let ledger: LedgerRepository
  let accounts: AccountRepository
  let player: number

  /** A posting through the ledger this process was handed, or through another process's own. */
  const post = (on: Db, amountMicro: number) =>
    immediate(on, () =>
      (on === db ? ledger : new LedgerRepository(on)).post({
        playerId: player,
        currency: 'USDT',
        type: 'topup',
        amountMicro,
        at: 1,
      }),
    )

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'balance-cache-'))
    db = openDatabase(join(dir, 'db.sqlite'))
    migrate(db)
    ledger = new LedgerRepository(db)
    accounts = new AccountRepository(db, ledger)
    player = accounts.create({
      phone: '13800000001',
      nickname: 'p',
      passwordHash: 'x',
      inviteCode: 'ABC123',
      inviterId: null,
      at: 1,
    })
    // A second connection to the same file stands for another process.
    other = openDatabase(join(dir, 'db.sqlite'))
  })

  afterEach(() => {
    vi.useRealTimers()
    db.close()
    other.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('shows a posting made in this process at once', () => {
    expect(accounts.balancesOf(player)?.balance_micro).toBe(0)
    post(db, 5_000_000)
    expect(accounts.balancesOf(player)?.balance_micro).toBe(5_000_000)
    post(db, -2_000_000)
    expect(accounts.balancesOf(player)?.balance_micro).toBe(3_000_000)
  })

  it('never keeps a balance read inside a transaction that then rolls back', () => {
    expect(accounts.balancesOf(player)?.balance_micro).toBe(0)
    expect(() =>
      immediate(db, () => {
        ledger.post({
          playerId: player,
          currency: 'USDT',
          type: 'topup',
          amountMicro: 7_000_000,
          at: 1,
        })
        expect(accounts.balancesOf(player)?.balance_micro).toBe(7_000_000)
        throw new Error('undo')
      }),
    ).toThrow('undo')
    expect(accounts.balancesOf(player)?.balance_micro).toBe(0)
  })

  it("sees another process's posting once the cache lifetime is over", () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(1_000_000)
    expect(accounts.balancesOf(player)?.balance_micro).toBe(0)
    post(other, 4_000_000)
    vi.setSystemTime(1_000_000 + 1_001)
    expect(accounts.balancesOf(player)?.balance_micro).toBe(4_000_000)
  })

  it('reads again once the ledger is told balances changed without a posting (the reset)', () => {
    expect(accounts.balancesOf(player)?.balance_micro).toBe(0)
    other.prepare('UPDATE players SET balance_micro = 9 WHERE id = ?').run(player)
    ledger.markBalancesChanged()
    expect(accounts.balancesOf(player)?.balance_micro).toBe(9)
  })
})
