import {
  DEPOSIT_STATUS_LABEL,
  type DepositOrder,
  FUND_FLOW_TYPE_LABEL,
  type FundFlowItem,
  NETWORK,
  type WalletAddress,
  WITHDRAWAL_STATUS_LABEL,
  type Withdrawal,
} from '@shared/contract/wallet'
import { formatMoney } from '@shared/money'
import type { DepositRow } from './deposit-repository'
import type { LedgerRow } from './fund-flow-repository'
import type { WalletAddressRow, WithdrawalRow } from './withdrawal-repository'

/** Rows as the contract shows them. */

/** Confirmations seen at `now`: they grow with the chain delay, and reach the count only when confirmed. */
export function confirmationsAt(row: DepositRow, now: number): number {
  if (row.status === 'confirmed') return row.confirmations_required
  const total = row.due_at - row.created_at
  if (total <= 0) return row.confirmations_required - 1
  const seen = Math.floor(((now - row.created_at) * row.confirmations_required) / total)
  return Math.max(0, Math.min(row.confirmations_required - 1, seen))
}

export const depositView = (row: DepositRow, now: number): DepositOrder => ({
  id: row.id,
  order_no: row.order_no,
  currency: 'USDT',
  network: NETWORK,
  address: row.address,
  amount: formatMoney(row.amount_micro),
  status: row.status,
  status_label: DEPOSIT_STATUS_LABEL[row.status],
  confirmations: confirmationsAt(row, now),
  confirmations_required: row.confirmations_required,
  tx_hash: row.tx_hash,
  created_at: row.created_at,
  expected_at: row.due_at,
  confirmed_at: row.confirmed_at,
})

export const withdrawalView = (row: WithdrawalRow): Withdrawal => ({
  id: row.id,
  order_no: row.order_no,
  currency: 'USDT',
  network: NETWORK,
  address: row.address,
  label: row.label,
  amount: formatMoney(row.amount_micro),
  fee: formatMoney(row.fee_micro),
  total: formatMoney(row.amount_micro + row.fee_micro),
  status: row.status,
  status_label: WITHDRAWAL_STATUS_LABEL[row.status],
  reason: row.reason,
  tx_hash: row.tx_hash,
  created_at: row.created_at,
  reviewed_at: row.reviewed_at,
})

export const walletAddressView = (row: WalletAddressRow): WalletAddress => ({
  id: row.id,
  address: row.address,
  label: row.label,
  network: NETWORK,
  is_default: row.is_default === 1,
  created_at: row.created_at,
})

export const fundFlowView = (row: LedgerRow): FundFlowItem => ({
  id: row.id,
  type: row.type,
  type_label: FUND_FLOW_TYPE_LABEL[row.type] ?? row.type,
  currency: row.currency,
  amount: formatMoney(row.amount_micro),
  balance_after: formatMoney(row.balance_after_micro),
  ref: row.ref,
  memo: row.memo,
  created_at: row.created_at,
})
