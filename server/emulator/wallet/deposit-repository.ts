import type { Db } from '@server/db/database'
import { pagedRows } from '@server/db/paged-rows'
import type { DepositStatus } from '@shared/contract/wallet'
import type { HistoryFilter, Page } from './wallet-format'

export interface DepositRow {
  id: number
  order_no: string
  player_id: number
  address: string
  amount_micro: number
  status: DepositStatus
  confirmations_required: number
  due_at: number
  tx_hash: string | null
  created_at: number
  confirmed_at: number | null
}

export interface NewDeposit {
  orderNo: string
  playerId: number
  address: string
  amountMicro: number
  confirmationsRequired: number
  dueAt: number
  at: number
}

/** Deposit addresses (one per player) and top-up orders. */
export class DepositRepository {
  private readonly addressOfPlayer
  private readonly playerOfAddress
  private readonly insertAddress
  private readonly insertOrder
  private readonly byId
  private readonly pendingCount
  private readonly confirmedCountOf
  private readonly dueIds
  private readonly confirm

  constructor(private readonly db: Db) {
    this.addressOfPlayer = db
      .prepare<[number], string>('SELECT address FROM deposit_addresses WHERE player_id = ?')
      .pluck()
    this.playerOfAddress = db
      .prepare<[string], number>('SELECT player_id FROM deposit_addresses WHERE address = ?')
      .pluck()
    this.insertAddress = db.prepare(
      'INSERT INTO deposit_addresses (player_id, address, created_at) VALUES (?, ?, ?)',
    )
    this.insertOrder = db.prepare(
      `INSERT INTO deposits (order_no, player_id, address, amount_micro, status, confirmations_required, due_at, created_at)
       VALUES (@orderNo, @playerId, @address, @amountMicro, 'pending', @confirmationsRequired, @dueAt, @at)`,
    )
    this.byId = db.prepare<[number], DepositRow>('SELECT * FROM deposits WHERE id = ?')
    this.pendingCount = db
      .prepare<[number], number>(`SELECT COUNT(*) FROM deposits WHERE player_id = ? AND status = 'pending'`)
      .pluck()
    this.confirmedCountOf = db
      .prepare<[number], number>(`SELECT COUNT(*) FROM deposits WHERE player_id = ? AND status = 'confirmed'`)
      .pluck()
    this.dueIds = db
      .prepare<[number], number>(
        `SELECT id FROM deposits WHERE status = 'pending' AND due_at <= ? ORDER BY due_at, id LIMIT 500`,
      )
      .pluck()
    this.confirm = db.prepare(
      `UPDATE deposits SET status = 'confirmed', confirmed_at = ?, tx_hash = ? WHERE id = ? AND status = 'pending'`,
    )
  }

  /** How many of the player's top-ups have been credited. */
  confirmedCount(playerId: number): number {
    return this.confirmedCountOf.get(playerId) ?? 0
  }

  addressOf(playerId: number): string | undefined {
    return this.addressOfPlayer.get(playerId)
  }

  addressTaken(address: string): boolean {
    return this.playerOfAddress.get(address) !== undefined
  }

  saveAddress(playerId: number, address: string, at: number): void {
    this.insertAddress.run(playerId, address, at)
  }

  create(d: NewDeposit): DepositRow {
    const id = Number(this.insertOrder.run(d).lastInsertRowid)
    const row = this.byId.get(id)
    if (!row) throw new Error('deposit vanished after insert')
    return row
  }

  find(id: number): DepositRow | undefined {
    return this.byId.get(id)
  }

  findByOrderNo(orderNo: string): DepositRow | undefined {
    return this.db.prepare<[string], DepositRow>('SELECT * FROM deposits WHERE order_no = ?').get(orderNo)
  }

  countPending(playerId: number): number {
    return this.pendingCount.get(playerId) ?? 0
  }

  /** Pending orders whose chain delay has passed by `now`. */
  due(now: number): number[] {
    return this.dueIds.all(now)
  }

  /** Pending → confirmed; false when it was not pending (already confirmed). */
  markConfirmed(id: number, at: number, txHash: string): boolean {
    return this.confirm.run(at, txHash, id).changes === 1
  }

  list(playerId: number | null, filter: HistoryFilter, page: Page): { rows: DepositRow[]; total: number } {
    return pagedRows<DepositRow>(
      this.db,
      'deposits',
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
