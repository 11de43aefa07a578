import type { DepositStatus, WithdrawalStatus } from '@shared/contract/wallet'
import Tag from 'antd-mobile/es/components/tag'

type Status = DepositStatus | WithdrawalStatus

/** Waiting is orange, money that arrived is green, money sent back is red. */
const STATUS_COLOR: Record<Status, 'warning' | 'success' | 'danger'> = {
  pending: 'warning',
  confirmed: 'success',
  approved: 'success',
  rejected: 'danger',
}

/** An order's status in its colour, with the label the server gave it. */
export function StatusTag({ status, label }: { status: Status; label: string }) {
  return (
    <Tag className="wallet-status" color={STATUS_COLOR[status]} fill="outline" data-status={status}>
      {label}
    </Tag>
  )
}
