import type { Db } from '@server/db/database'
import { type Publish, player, publishNothing } from '@server/realtime/event-hub'
import type { FundFlowType } from '@shared/contract/wallet'
import { formatMoney } from '@shared/money'
import type { Statement } from 'better-sqlite3'
import { InsufficientFundsError } from './insufficient-funds'

export type Currency = 'USDT' | 'TRX'

/** Why a balance moved: the contract's fund-flow types are the ledger's types. */
export type LedgerType = FundFlowType

/** The players column that holds each currency's balance. */
const BALANCE_COLUMN: Record<Currency, string> = { USDT: 'balance_micro', TRX: 'trx_balance_micro' }

export interface Posting {
  readonly playerId: number
  readonly currency: Currency
  readonly type: LedgerType
  /** Signed micro-units: positive credits, negative debits. */
  readonly amountMicro: number
  readonly ref?: string | null
  readonly memo?: string
  readonly at: number
}

/** What a balance cache needs of the ledger: a count that moves whenever a balance may have. */
export interface BalanceGeneration {
  readonly generation: number
}

/**
 * The only way a balance changes: the balance update and its ledger row are written together.
 * Call inside a BEGIN IMMEDIATE transaction; a debit that would go below zero throws
 * InsufficientFundsError and the caller's transaction rolls back.
 */
export class LedgerRepository implements BalanceGeneration {
  private readonly credit: Record<Currency, Statement<[number, number, number]>>
  private readonly balanceOf: Record<Currency, Statement<[number], number>>
  private readonly insert: Statement<unknown[]>
  private readonly typeCount: Statement<[number, string], number>

  private postings = 0

  /** `publish`: where each posting is announced (a `balance` event to its player, once committed). */
  constructor(
    private readonly db: Db,
    private readonly publish: Publish = publishNothing,
  ) {
    // Per currency, an update and a read: UPDATE … RETURNING costs more than the two.
    const update = (column: string) =>
      db.prepare<[number, number, number]>(
        `UPDATE players SET ${column} = ${column} + ? WHERE id = ? AND ${column} + ? >= 0`,
      )
    const read = (column: string) =>
      db.prepare<[number], number>(`SELECT ${column} FROM players WHERE id = ?`).pluck()
    this.credit = { USDT: update(BALANCE_COLUMN.USDT), TRX: update(BALANCE_COLUMN.TRX) }
    this.balanceOf = { USDT: read(BALANCE_COLUMN.USDT), TRX: read(BALANCE_COLUMN.TRX) }
    this.insert = db.prepare(
      `INSERT INTO ledger (player_id, currency, type, amount_micro, balance_after_micro, ref, memo, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    this.typeCount = db
      .prepare<[number, string], number>('SELECT COUNT(*) FROM ledger WHERE player_id = ? AND type = ?')
      .pluck()
  }

  /**
   * Moves whenever a posting is written through this ledger (the composition root builds one and
   * hands it to every domain), so a balance read before it moved is stale (AccountRepository.balancesOf).
   */
  get generation(): number {
    return this.postings
  }

  /** For writes that change balances without a posting (the data reset to the seed). */
  markBalancesChanged(): void {
    this.postings++
  }

  /** How many postings of this type the player has. */
  countOfType(playerId: number, type: LedgerType): number {
    return this.typeCount.get(playerId, type) ?? 0
  }

  /** Applies one posting; returns the ledger row id and the balance after it. */
  post(p: Posting): { id: number; balanceAfterMicro: number } {
    if (!Number.isSafeInteger(p.amountMicro) || p.amountMicro === 0) {
      throw new RangeError(`bad ledger amount ${p.amountMicro}`)
    }
    if (!this.db.inTransaction) throw new Error('ledger postings must run inside a transaction')
    // Before the write: whether it commits or rolls back, balances read before it are old news.
    this.postings++
    const { changes } = this.credit[p.currency].run(p.amountMicro, p.playerId, p.amountMicro)
    const row = changes === 1 ? this.balanceOf[p.currency].get(p.playerId) : undefined
    if (row === undefined)
      throw new InsufficientFundsError(`insufficient ${p.currency} for player ${p.playerId}`)
    const info = this.insert.run(
      p.playerId,
      p.currency,
      p.type,
      p.amountMicro,
      row,
      p.ref ?? null,
      p.memo ?? '',
      p.at,
    )
    this.publish(
      'balance',
      {
        currency: p.currency,
        balance: formatMoney(row),
        change: formatMoney(p.amountMicro),
        type: p.type,
        at: p.at,
      },
      player(p.playerId),
    )
    return { id: Number(info.lastInsertRowid), balanceAfterMicro: row }
  }

  /** Σ ledger per player and currency against the balance columns; empty when they all agree. */
  drift(): { playerId: number; currency: Currency; balance: number; ledger: number }[] {
    return this.db
      .prepare(
        `SELECT p.id AS playerId, c.currency AS currency,
                CASE c.currency WHEN 'USDT' THEN p.balance_micro ELSE p.trx_balance_micro END AS balance,
                COALESCE((SELECT SUM(amount_micro) FROM ledger l WHERE l.player_id = p.id AND l.currency = c.currency), 0) AS ledger
         FROM players p CROSS JOIN (SELECT 'USDT' AS currency UNION ALL SELECT 'TRX') c
         WHERE balance != ledger`,
      )
      .all() as { playerId: number; currency: Currency; balance: number; ledger: number }[]
  }
}
