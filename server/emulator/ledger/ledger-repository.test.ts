import { type Db, immediate, openDatabase } from '@server/db/database'
import { migrate } from '@server/db/migrations'
import type { Publish } from '@server/realtime/event-hub'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { AccountRepository } from '../account/account-repository'
import { InsufficientFundsError } from './insufficient-funds'
import { type Currency, LedgerRepository, type Posting } from './ledger-repository'

/** The ledger on its own: each balance change is a row with the balance after it, or nothing at all. */
describe('LedgerRepository', () => {
  let db: Db
  let publish: ReturnType<typeof vi.fn<Publish>>
  let ledger: LedgerRepository
  let alice: number
  let bob: number

  const balance = (playerId: number, currency: Currency): number =>
    db
      .prepare<[number], number>(
        `SELECT ${currency === 'USDT' ? 'balance_micro' : 'trx_balance_micro'} FROM players WHERE id = ?`,
      )
      .pluck()
      .get(playerId) ?? Number.NaN
  const rows = () =>
    db
      .prepare(
        'SELECT id, player_id, currency, type, amount_micro, balance_after_micro, ref, memo, created_at FROM ledger ORDER BY id',
      )
      .all()
  const post = (p: Partial<Posting> & Pick<Posting, 'amountMicro'>) =>
    immediate(db, () => ledger.post({ playerId: alice, currency: 'USDT', type: 'topup', at: 1_000, ...p }))

  beforeEach(() => {
    db = openDatabase(':memory:')
    migrate(db)
    publish = vi.fn<Publish>()
    ledger = new LedgerRepository(db, publish)
    const accounts = new AccountRepository(db, ledger)
    const player = (phone: string, inviteCode: string) =>
      accounts.create({ phone, nickname: phone, passwordHash: 'x', inviteCode, inviterId: null, at: 1 })
    alice = player('13800000001', 'AAA111')
    bob = player('13800000002', 'BBB222')
  })

  afterEach(() => db.close())

  it('credits and debits the balance and writes one row each, with the balance after it', () => {
    expect(post({ amountMicro: 5_000_000, ref: 'dep-1', memo: 'deposit' })).toEqual({
      id: 1,
      balanceAfterMicro: 5_000_000,
    })
    expect(post({ amountMicro: -2_000_000, type: 'bet', at: 2_000 })).toEqual({
      id: 2,
      balanceAfterMicro: 3_000_000,
    })
    expect(balance(alice, 'USDT')).toBe(3_000_000)
    expect(rows()).toEqual([
      {
        id: 1,
        player_id: alice,
        currency: 'USDT',
        type: 'topup',
        amount_micro: 5_000_000,
        balance_after_micro: 5_000_000,
        ref: 'dep-1',
        memo: 'deposit',
        created_at: 1_000,
      },
      {
        id: 2,
        player_id: alice,
        currency: 'USDT',
        type: 'bet',
        amount_micro: -2_000_000,
        balance_after_micro: 3_000_000,
        ref: null,
        memo: '',
        created_at: 2_000,
      },
    ])
    expect(ledger.drift()).toEqual([])
  })

  it('keeps each currency in its own column, and other players untouched', () => {
    post({ amountMicro: 7_000_000, currency: 'TRX' })
    post({ amountMicro: 1_000_000, playerId: bob })
    expect(balance(alice, 'TRX')).toBe(7_000_000)
    expect(balance(alice, 'USDT')).toBe(0)
    expect(balance(bob, 'USDT')).toBe(1_000_000)
    expect(balance(bob, 'TRX')).toBe(0)
    expect(post({ amountMicro: -7_000_000, currency: 'TRX' }).balanceAfterMicro).toBe(0)
    expect(balance(alice, 'TRX')).toBe(0)
    expect(ledger.drift()).toEqual([])
  })

  it('debits down to exactly zero, and refuses one micro-unit more without writing anything', () => {
    post({ amountMicro: 2_000_000 })
    expect(() => post({ amountMicro: -2_000_001 })).toThrow(InsufficientFundsError)
    expect(() => post({ amountMicro: -2_000_001 })).toThrow(`insufficient USDT for player ${alice}`)
    expect(balance(alice, 'USDT')).toBe(2_000_000)
    expect(rows()).toHaveLength(1)
    expect(post({ amountMicro: -2_000_000 }).balanceAfterMicro).toBe(0)
    expect(balance(alice, 'USDT')).toBe(0)
  })

  it('refuses a TRX debit the TRX balance does not cover, whatever the USDT balance', () => {
    post({ amountMicro: 9_000_000 })
    expect(() => post({ amountMicro: -1, currency: 'TRX' })).toThrow('insufficient TRX')
    expect(balance(alice, 'USDT')).toBe(9_000_000)
  })

  it('refuses a posting for a player that does not exist', () => {
    expect(() => post({ amountMicro: 1_000, playerId: 999 })).toThrow(InsufficientFundsError)
    expect(rows()).toEqual([])
  })

  it('refuses a zero, fractional or unsafe amount', () => {
    for (const amountMicro of [0, 0.5, -1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1]) {
      expect(() => post({ amountMicro })).toThrow(new RangeError(`bad ledger amount ${amountMicro}`))
    }
    expect(rows()).toEqual([])
    expect(ledger.generation).toBe(0)
  })

  it('refuses to post outside a transaction', () => {
    expect(() =>
      ledger.post({ playerId: alice, currency: 'USDT', type: 'topup', amountMicro: 1, at: 1 }),
    ).toThrow('ledger postings must run inside a transaction')
    expect(rows()).toEqual([])
    expect(balance(alice, 'USDT')).toBe(0)
  })

  it('moves the generation on every posting, even one that is refused or rolled back', () => {
    expect(ledger.generation).toBe(0)
    post({ amountMicro: 1_000 })
    expect(ledger.generation).toBe(1)
    expect(() => post({ amountMicro: -5_000 })).toThrow(InsufficientFundsError)
    expect(ledger.generation).toBe(2)
    ledger.markBalancesChanged()
    expect(ledger.generation).toBe(3)
  })

  it('announces each posting to its player with the new balance and the change', () => {
    post({ amountMicro: 1_500_000, at: 42 })
    post({ amountMicro: -500_000, type: 'bet', currency: 'USDT', at: 43 })
    expect(publish.mock.calls).toEqual([
      [
        'balance',
        { currency: 'USDT', balance: '1.50', change: '1.50', type: 'topup', at: 42 },
        { to: 'player', playerId: alice },
      ],
      [
        'balance',
        { currency: 'USDT', balance: '1.00', change: '-0.50', type: 'bet', at: 43 },
        { to: 'player', playerId: alice },
      ],
    ])
  })

  it('counts a player’s postings of one type', () => {
    post({ amountMicro: 1_000, type: 'deposit_bonus' })
    post({ amountMicro: 1_000, type: 'deposit_bonus' })
    post({ amountMicro: 1_000, type: 'topup' })
    post({ amountMicro: 1_000, type: 'deposit_bonus', playerId: bob })
    expect(ledger.countOfType(alice, 'deposit_bonus')).toBe(2)
    expect(ledger.countOfType(alice, 'topup')).toBe(1)
    expect(ledger.countOfType(alice, 'bonus')).toBe(0)
  })

  it('reports a balance that disagrees with the sum of its rows, per player and currency', () => {
    post({ amountMicro: 3_000_000 })
    post({ amountMicro: 2_000_000, currency: 'TRX', playerId: bob })
    db.prepare('UPDATE players SET balance_micro = balance_micro + 1 WHERE id = ?').run(alice)
    db.prepare('UPDATE players SET trx_balance_micro = 5 WHERE id = ?').run(bob)
    expect(ledger.drift()).toEqual([
      { playerId: alice, currency: 'USDT', balance: 3_000_001, ledger: 3_000_000 },
      { playerId: bob, currency: 'TRX', balance: 5, ledger: 2_000_000 },
    ])
  })
})
