import type { Db } from '@server/db/database'
import { pagedRows } from '@server/db/paged-rows'
import type { FundFlowType, WalletCurrency } from '@shared/contract/wallet'
import type { Page } from './wallet-format'

export interface LedgerRow {
  id: number
  player_id: number
  currency: WalletCurrency
  type: FundFlowType
  amount_micro: number
  balance_after_micro: number
  ref: string | null
  memo: string
  created_at: number
}

export interface FundFlowFilter {
  type?: FundFlowType | undefined
  currency?: WalletCurrency | undefined
  from: number | null
  to: number | null
}

/** Reads the ledger for the fund-flow page; writes go through LedgerRepository.post only. */
export class FundFlowRepository {
  constructor(private readonly db: Db) {}

  list(playerId: number, filter: FundFlowFilter, page: Page): { rows: LedgerRow[]; total: number } {
    return pagedRows<LedgerRow>(
      this.db,
      'ledger',
      [
        ['player_id = ?', playerId],
        ['type = ?', filter.type],
        ['currency = ?', filter.currency],
        ['created_at >= ?', filter.from],
        ['created_at < ?', filter.to],
      ],
      page,
    )
  }
}
