import { PageShell } from '@client/components/page-shell/page-shell'
import { PagedListView } from '@client/components/paged-list/paged-list'
import { RequireLogin } from '@client/components/require-login/require-login'
import { paths } from '@client/config/paths'
import { formatDateTime } from '@client/lib/date-time'
import { truncate } from '@client/lib/format'
import { callApi } from '@client/lib/http'
import { type Paged, type PageParams, usePagedList } from '@client/lib/use-paged-list'
import {
  DEPOSIT_STATUS_LABEL,
  DEPOSIT_STATUSES,
  type DepositOrder,
  type DepositStatus,
  getDepositHistory,
  getWithdrawalHistory,
  WITHDRAWAL_STATUS_LABEL,
  WITHDRAWAL_STATUSES,
  type Withdrawal,
  type WithdrawalStatus,
} from '@shared/contract/wallet'
import Tabs from 'antd-mobile/es/components/tabs'
import { type ReactNode, useState } from 'react'
import { useSearchParams } from 'react-router-dom'
import { AmountText } from './amount-text'
import { ALL_DATES, type DateFilter } from './date-range-filter'
import { choice, FilterBar } from './filter-bar'
import { StatusTag } from './status-tag'
import type { DateRange } from './wallet-time'
import './wallet.css'

type Tab = 'deposit' | 'withdraw'

/** Top-up and withdrawal histories, one tab each; `?tab=withdraw` opens the second. */
export function HistoryPage() {
  const [params, setParams] = useSearchParams()
  const tab: Tab = params.get('tab') === 'withdraw' ? 'withdraw' : 'deposit'
  return (
    <PageShell title="充值提现记录" fallback={paths.mine}>
      <RequireLogin>
        <Tabs
          className="wallet-tabs"
          activeKey={tab}
          onChange={(key) => setParams(key === 'withdraw' ? { tab: 'withdraw' } : {}, { replace: true })}
        >
          <Tabs.Tab key="deposit" title="充值记录">
            <DepositHistory />
          </Tabs.Tab>
          <Tabs.Tab key="withdraw" title="提现记录">
            <WithdrawalHistory />
          </Tabs.Tab>
        </Tabs>
      </RequireLogin>
    </PageShell>
  )
}

/** The filters both histories take: a status (all when none) and a date range. */
type HistoryQuery<S> = DateRange & { status?: S }

interface StatusHistoryProps<S extends string, T extends { id: number }> {
  statuses: readonly S[]
  statusLabel: Readonly<Record<S, string>>
  fetchPage: (query: HistoryQuery<S>, page: PageParams) => Promise<Paged<T>>
  label: string
  empty: string
  renderItem: (item: T) => ReactNode
}

/** A history with a status and a date filter over a paged list. */
function StatusHistory<S extends string, T extends { id: number }>({
  statuses,
  statusLabel,
  fetchPage,
  label,
  empty,
  renderItem,
}: StatusHistoryProps<S, T>) {
  const [status, setStatus] = useState<S | null>(null)
  const [dates, setDates] = useState<DateFilter>(ALL_DATES)
  const query: HistoryQuery<S> = { ...dates.range, ...(status ? { status } : {}) }
  const list = usePagedList<Paged<T>>(
    query,
    (page) => fetchPage(query, page),
    (item) => item.id,
  )
  return (
    <>
      <FilterBar
        choices={[
          choice({
            key: 'status',
            title: '全部状态',
            options: statuses.map((value) => ({ value, label: statusLabel[value] })),
            value: status,
            onChange: setStatus,
          }),
        ]}
        dates={dates}
        onDates={setDates}
      />
      <PagedListView list={list} label={label} empty={empty} renderItem={renderItem} timeZoneNote />
    </>
  )
}

/** One order in a history: what and how much, when and in which state, then its own details. */
function OrderRecord({
  testId,
  title,
  order,
  children,
}: {
  testId: string
  title: string
  order: DepositOrder | Withdrawal
  children: ReactNode
}) {
  return (
    <article className="wallet-record" data-testid={testId} data-order-no={order.order_no}>
      <div className="wallet-record__row">
        <span className="wallet-record__title">{title}</span>
        <AmountText value={order.amount} />
      </div>
      <div className="wallet-record__row">
        <span className="wallet-meta num">{formatDateTime(order.created_at)}</span>
        <StatusTag status={order.status} label={order.status_label} />
      </div>
      {children}
    </article>
  )
}

function DepositHistory() {
  return (
    <StatusHistory<DepositStatus, DepositOrder>
      statuses={DEPOSIT_STATUSES}
      statusLabel={DEPOSIT_STATUS_LABEL}
      fetchPage={(query, page) => callApi(getDepositHistory, { query: { ...query, ...page } })}
      label="充值记录"
      empty="暂无充值记录"
      renderItem={(order) => (
        <OrderRecord testId="deposit-record" title={`USDT 充值（${order.network}）`} order={order}>
          <div className="wallet-record__row wallet-meta">
            <span>订单号 {order.order_no}</span>
            {order.status === 'pending' ? (
              <span>
                确认 {order.confirmations}/{order.confirmations_required}
              </span>
            ) : null}
          </div>
        </OrderRecord>
      )}
    />
  )
}

function WithdrawalHistory() {
  return (
    <StatusHistory<WithdrawalStatus, Withdrawal>
      statuses={WITHDRAWAL_STATUSES}
      statusLabel={WITHDRAWAL_STATUS_LABEL}
      fetchPage={(query, page) => callApi(getWithdrawalHistory, { query: { ...query, ...page } })}
      label="提现记录"
      empty="暂无提现记录"
      renderItem={(order) => (
        <OrderRecord testId="withdrawal-record" title={`提现至 ${order.label}`} order={order}>
          <div className="wallet-record__row wallet-meta">
            <span>{truncate(order.address, 8, 8)}</span>
            <span>
              手续费 <AmountText value={order.fee} />
            </span>
          </div>
          <div className="wallet-record__row wallet-meta">
            <span>订单号 {order.order_no}</span>
          </div>
          {order.status === 'rejected' && order.reason ? (
            <p className="wallet-record__reason">退回原因：{order.reason}（金额与手续费已退回余额）</p>
          ) : null}
        </OrderRecord>
      )}
    />
  )
}
