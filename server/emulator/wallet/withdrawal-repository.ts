import type { Db } from '@server/db/database'
import { pagedRows } from '@server/db/paged-rows'
import type { WithdrawalStatus } from '@shared/contract/wallet'
import type { HistoryFilter, Page } from './wallet-format'

export interface WalletAddressRow {
  id: number
  player_id: number
  address: string
  label: string
  is_default: number
  created_at: number
}

export interface WithdrawalRow {
  id: number
  order_no: string
  player_id: number
  address: string
  label: string
  amount_micro: number
  fee_micro: number
  status: WithdrawalStatus
  review_due_at: number | null
  reason: string | null
  tx_hash: string | null
  created_at: number
  reviewed_at: number | null
}

export interface NewWithdrawal {
  orderNo: string
  playerId: number
  address: string
  label: string
  amountMicro: number
  feeMicro: number
  reviewDueAt: number | null
  at: number
}

/** Bound withdrawal addresses and withdrawal orders. */
export class WithdrawalRepository {
  private readonly addressesOf
  private readonly addressById
  private readonly insertAddress
  private readonly insertWithdrawal
  private readonly byId
  private readonly dueIds
  private readonly review
  private readonly usedSinceStmt

  constructor(private readonly db: Db) {
    this.addressesOf = db.prepare<[number], WalletAddressRow>(
      'SELECT * FROM withdrawal_addresses WHERE player_id = ? ORDER BY is_default DESC, created_at DESC, id DESC',
    )
    this.addressById = db.prepare<[number, number], WalletAddressRow>(
      'SELECT * FROM withdrawal_addresses WHERE id = ? AND player_id = ?',
    )
    this.insertAddress = db.prepare(
      'INSERT INTO withdrawal_addresses (player_id, address, label, is_default, created_at) VALUES (?, ?, ?, ?, ?)',
    )
    this.insertWithdrawal = db.prepare(
      `INSERT INTO withdrawals (order_no, player_id, address, label, amount_micro, fee_micro, status, review_due_at, created_at)
       VALUES (@orderNo, @playerId, @address, @label, @amountMicro, @feeMicro, 'pending', @reviewDueAt, @at)`,
    )
    this.byId = db.prepare<[number], WithdrawalRow>('SELECT * FROM withdrawals WHERE id = ?')
    this.dueIds = db
      .prepare<[number], number>(
        `SELECT id FROM withdrawals WHERE status = 'pending' AND review_due_at <= ? ORDER BY review_due_at, id LIMIT 500`,
      )
      .pluck()
    this.review = db.prepare(
      `UPDATE withdrawals SET status = ?, reviewed_at = ?, reason = ?, tx_hash = ? WHERE id = ? AND status = 'pending'`,
    )
    this.usedSinceStmt = db
      .prepare<[number, number], number>(
        `SELECT COALESCE(SUM(amount_micro), 0) FROM withdrawals
         WHERE player_id = ? AND created_at >= ? AND status != 'rejected'`,
      )
      .pluck()
  }

  // ── addresses ──

  addresses(playerId: number): WalletAddressRow[] {
    return this.addressesOf.all(playerId)
  }

  address(playerId: number, id: number): WalletAddressRow | undefined {
    return this.addressById.get(id, playerId)
  }

  bind(playerId: number, address: string, label: string, isDefault: boolean, at: number): number {
    if (isDefault) this.clearDefault(playerId)
    return Number(this.insertAddress.run(playerId, address, label, isDefault ? 1 : 0, at).lastInsertRowid)
  }

  setDefault(playerId: number, id: number): void {
    this.clearDefault(playerId)
    this.db
      .prepare('UPDATE withdrawal_addresses SET is_default = 1 WHERE id = ? AND player_id = ?')
      .run(id, playerId)
  }

  remove(playerId: number, id: number): boolean {
    return (
      this.db.prepare('DELETE FROM withdrawal_addresses WHERE id = ? AND player_id = ?').run(id, playerId)
        .changes === 1
    )
  }

  private clearDefault(playerId: number): void {
    this.db
      .prepare('UPDATE withdrawal_addresses SET is_default = 0 WHERE player_id = ? AND is_default = 1')
      .run(playerId)
  }

  // ── withdrawals ──

  create(w: NewWithdrawal): WithdrawalRow {
    const id = Number(this.insertWithdrawal.run(w).lastInsertRowid)
    const row = this.byId.get(id)
    if (!row) throw new Error('withdrawal vanished after insert')
    return row
  }

  find(id: number): WithdrawalRow | undefined {
    return this.byId.get(id)
  }

  findByOrderNo(orderNo: string): WithdrawalRow | undefined {
    return this.db
      .prepare<[string], WithdrawalRow>('SELECT * FROM withdrawals WHERE order_no = ?')
      .get(orderNo)
  }

  /** Pending withdrawals whose automatic review is due by `now`. */
  due(now: number): number[] {
    return this.dueIds.all(now)
  }

  /** Pending → approved or rejected; false when it was no longer pending. */
  markReviewed(
    id: number,
    status: 'approved' | 'rejected',
    at: number,
    reason: string | null,
    txHash: string | null,
  ): boolean {
    return this.review.run(status, at, reason, txHash, id).changes === 1
  }

  /** Sum of amounts requested since `since`, rejected ones excluded (they gave the money back). */
  usedSince(playerId: number, since: number): number {
    return this.usedSinceStmt.get(playerId, since) ?? 0
  }

  list(playerId: number | null, filter: HistoryFilter, page: Page): { rows: WithdrawalRow[]; total: number } {
    return pagedRows<WithdrawalRow>(
      this.db,
      'withdrawals',
      [
        ['player_id = ?', playerId],
        ['status = ?', filter.status],
        ['created_at >= ?', filter.from],
        ['created_at < ?', filter.to],
      ],
      page,
    )
  }
}
