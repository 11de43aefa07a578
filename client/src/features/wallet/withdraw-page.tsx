import { Amount } from '@client/components/amount/amount'
import { AmountInput } from '@client/components/amount-input/amount-input'
import { DateTimeText } from '@client/components/date-time-text/date-time-text'
import { PageShell } from '@client/components/page-shell/page-shell'
import { RequireLogin } from '@client/components/require-login/require-login'
import { paths } from '@client/config/paths'
import { formatShortTime, TIME_ZONE_LABEL } from '@client/lib/date-time'
import { isEndpointMissing } from '@client/lib/endpoint-status'
import { truncate } from '@client/lib/format'
import { ApiError, callApi } from '@client/lib/http'
import { useLiveEvent, useLivePlayerHealthy } from '@client/lib/live'
import { withReturn } from '@client/lib/return-to'
import { refreshBalance } from '@client/lib/session-actions'
import { session } from '@client/lib/session-store'
import { SubmissionKey } from '@client/lib/submission-key'
import { showToast } from '@client/lib/toast'
import { useApi } from '@client/lib/use-api'
import type { DataOf } from '@shared/contract/endpoint'
import {
  getWithdrawalHistory,
  getWithdrawConfig,
  listWallets,
  type WalletAddress,
  type Withdrawal,
  withdraw,
} from '@shared/contract/wallet'
import { formatMoney } from '@shared/money'
import Button from 'antd-mobile/es/components/button'
import CheckList from 'antd-mobile/es/components/check-list'
import List from 'antd-mobile/es/components/list'
import Popup from 'antd-mobile/es/components/popup'
import { useEffect, useRef, useState } from 'react'
import { Link } from 'react-router-dom'
import { AmountText } from './amount-text'
import { FormError } from './form-error'
import { PayPasswordSheet } from './pay-password-sheet'
import { StatusTag } from './status-tag'
import { WalletBalance } from './wallet-balance'
import { parseAmount, withdrawQuote } from './wallet-money'
import './wallet.css'

/** /address opened from here comes back here once an address is bound. */
export const BIND_FROM_WITHDRAW = withReturn(paths.walletAddresses, paths.withdraw)
export const PAY_PASSWORD_FROM_WITHDRAW = withReturn(paths.payPasswordChange, paths.withdraw)

export function WithdrawPage() {
  return (
    <PageShell
      title="提现"
      fallback={paths.mine}
      right={
        <Link className="wallet-nav-link" to={`${paths.topUpHistory}?tab=withdraw`}>
          记录
        </Link>
      }
    >
      <RequireLogin>
        <Withdraw />
      </RequireLogin>
    </PageShell>
  )
}

function Withdraw() {
  // Shown again (tab back, window focus): the balance the form checks against is read again.
  const config = useApi(getWithdrawConfig, undefined, { revalidateOnFocus: true })
  const wallets = useApi(listWallets, undefined)
  const [result, setResult] = useState<Withdrawal | null>(null)

  return (
    <div className="wallet-page">
      <WalletBalance />
      {result ? (
        <WithdrawResult order={result} onAgain={() => setResult(null)} />
      ) : config.data && wallets.data ? (
        <WithdrawForm
          config={config.data}
          wallets={wallets.data.list}
          reloadConfig={async () => (await config.mutate()) ?? config.data}
          onDone={(order) => {
            setResult(order)
            void config.mutate()
          }}
        />
      ) : isEndpointMissing(config.error) || isEndpointMissing(wallets.error) ? (
        <p className="wallet-note" data-testid="endpoint-missing">
          当前服务暂不支持在此提现，请联系客服。
        </p>
      ) : config.error || wallets.error ? (
        <p className="wallet-note">
          提现信息加载失败，
          <button
            type="button"
            className="text-button"
            onClick={() => {
              void config.mutate()
              void wallets.mutate()
            }}
          >
            重试
          </button>
        </p>
      ) : (
        <p className="wallet-note">加载中…</p>
      )}
    </div>
  )
}

type WithdrawConfig = DataOf<typeof getWithdrawConfig>

function WithdrawForm({
  config,
  wallets,
  reloadConfig,
  onDone,
}: {
  config: WithdrawConfig
  wallets: WalletAddress[]
  reloadConfig: () => Promise<WithdrawConfig | undefined>
  onDone: (order: Withdrawal) => void
}) {
  const [walletId, setWalletId] = useState<number | null>(null)
  const [pickerOpen, setPickerOpen] = useState(false)
  const [amount, setAmount] = useState('')
  const [problem, setProblem] = useState('')
  const [sheetOpen, setSheetOpen] = useState(false)
  const [key] = useState(() => new SubmissionKey())

  const selected =
    wallets.find((w) => w.id === walletId) ?? wallets.find((w) => w.is_default) ?? wallets[0] ?? null
  const quote = withdrawQuote(amount, config)
  const locked = config.locked_until !== null

  const next = () => {
    const found = (() => {
      if (!selected) return '请先绑定提现地址'
      if (!config.has_pay_password) return '请先设置支付密码'
      if (config.locked_until !== null) return lockMessage(config.locked_until)
      if (!quote) return '请输入提现金额'
      return quote.problem ?? ''
    })()
    setProblem(found)
    if (!found) setSheetOpen(true)
  }

  const submit = async (payPassword: string): Promise<string | null> => {
    const micro = parseAmount(amount)
    if (!selected || micro === null) return '请输入提现金额'
    const body = { wallet_id: selected.id, amount: formatMoney(micro), pay_password: payPassword }
    try {
      const data = await callApi(withdraw, { body }, { idempotencyKey: key.keyFor(body) })
      key.settle()
      session.setBalance(data.balance)
      setSheetOpen(false)
      setAmount('')
      showToast('提现申请已提交', 'success')
      onDone(data.order)
      return null
    } catch (err) {
      key.settle(err)
      const message = err instanceof ApiError ? err.message : '提现失败，请稍后再试'
      const fresh = await reloadConfig().catch(() => undefined)
      if (fresh?.locked_until != null) {
        // Locked now: no more tries until it lifts; the page says until when.
        setSheetOpen(false)
        setProblem(message)
        return null
      }
      return message
    }
  }

  return (
    <>
      {locked && config.locked_until !== null ? (
        <div className="wallet-warning" role="alert">
          {lockMessage(config.locked_until)}
        </div>
      ) : null}
      {!config.has_pay_password ? (
        <div className="wallet-warning" role="note">
          提现需要支付密码，您还没有设置。
          <Link className="text-button" to={PAY_PASSWORD_FROM_WITHDRAW}>
            去设置
          </Link>
        </div>
      ) : null}

      <section className="wallet-card" aria-label="提现地址">
        <h2 className="wallet-card__title">提现地址（USDT-{config.network}）</h2>
        {selected ? (
          <List className="wallet-picker">
            <List.Item
              onClick={() => setPickerOpen(true)}
              description={<span className="wallet-address">{selected.address}</span>}
              arrowIcon
            >
              <span data-testid="withdraw-address-label">
                {selected.label}
                {selected.is_default ? <span className="wallet-chip">默认</span> : null}
              </span>
            </List.Item>
          </List>
        ) : (
          <div className="wallet-empty">
            <p>您还没有绑定提现地址</p>
            <Link className="text-button" to={BIND_FROM_WITHDRAW}>
              去绑定地址
            </Link>
          </div>
        )}
      </section>

      <section className="wallet-card" aria-label="提现金额">
        <h2 className="wallet-card__title">提现金额</h2>
        <AmountInput
          label="提现金额"
          unit="USDT"
          placeholder={`最低 ${config.min_amount} USDT`}
          value={amount}
          onChange={(value) => {
            setAmount(value)
            setProblem('')
          }}
          all={config.max_withdrawable}
        />
        <dl className="wallet-facts">
          <div>
            <dt>可提现</dt>
            <dd data-testid="withdraw-max">
              <AmountText value={config.max_withdrawable} />
            </dd>
          </div>
          <div>
            <dt>今日剩余额度</dt>
            <dd>
              <AmountText value={config.remaining_today} />
            </dd>
          </div>
          <div>
            <dt>单笔限额</dt>
            <dd data-public-figure>
              {config.min_amount} – {config.max_amount} USDT
            </dd>
          </div>
          <div>
            <dt>手续费</dt>
            <dd data-testid="withdraw-fee" data-public-figure>
              {quote?.fee ?? config.fee} USDT
            </dd>
          </div>
          <div>
            <dt>到账金额</dt>
            <dd data-testid="withdraw-arrive">{quote ? `${quote.arrive} USDT` : '—'}</dd>
          </div>
          <div>
            <dt>实际扣除</dt>
            <dd data-testid="withdraw-total">{quote ? `${quote.total} USDT` : '—'}</dd>
          </div>
        </dl>
        <FormError message={problem || quote?.problem} />
        <Button block color="primary" size="large" disabled={locked} onClick={next}>
          提现
        </Button>
        <p className="wallet-note">手续费另行扣除，提现金额全额到账；提交后需审核，请留意提现记录。</p>
      </section>

      <Popup
        visible={pickerOpen}
        onMaskClick={() => setPickerOpen(false)}
        onClose={() => setPickerOpen(false)}
        bodyClassName="wallet-sheet"
      >
        <div className="wallet-sheet__head">
          <h2 className="wallet-sheet__title">选择提现地址</h2>
          <Link className="text-button" to={BIND_FROM_WITHDRAW}>
            绑定新地址
          </Link>
        </div>
        <CheckList
          value={selected ? [selected.id] : []}
          onChange={(picked) => {
            const id = picked[0]
            if (typeof id === 'number') setWalletId(id)
            setPickerOpen(false)
          }}
        >
          {wallets.map((wallet) => (
            <CheckList.Item
              key={wallet.id}
              value={wallet.id}
              description={<span className="wallet-address">{wallet.address}</span>}
            >
              {wallet.label}
              {wallet.is_default ? <span className="wallet-chip">默认</span> : null}
            </CheckList.Item>
          ))}
        </CheckList>
      </Popup>

      <PayPasswordSheet
        visible={sheetOpen}
        title="确认提现"
        summary={
          quote && selected ? (
            <dl className="wallet-facts">
              <div>
                <dt>到账金额</dt>
                <dd>
                  <Amount value={quote.arrive} reveal />
                </dd>
              </div>
              <div>
                <dt>手续费</dt>
                <dd>
                  <Amount value={quote.fee} reveal />
                </dd>
              </div>
              <div>
                <dt>提现地址</dt>
                <dd>
                  {selected.label} {truncate(selected.address, 6, 6)}
                </dd>
              </div>
            </dl>
          ) : null
        }
        onClose={() => setSheetOpen(false)}
        onSubmit={submit}
      />
    </>
  )
}

function lockMessage(lockedUntil: number): string {
  return `支付密码错误次数过多，提现已锁定，请于 ${formatShortTime(lockedUntil)}（${TIME_ZONE_LABEL}）后再试`
}

/** While an order waits for review its status is read again this often, and whenever the page is shown. */
const PENDING_STATUS_POLL_MS = 15_000

/**
 * The order's status as the server has it now: the submitted order, followed by the withdrawal
 * history whenever the page is shown or focused again (and now and then while it is pending). A
 * decision refreshes the balance too (a rejected order's money is back).
 */
function useLatestStatus(order: Withdrawal): Withdrawal {
  const [pending, setPending] = useState(order.status === 'pending')
  const missing = useRef(false)
  // The push channel's `withdrawal` event says when the decision comes; without it, polled.
  const live = useLivePlayerHealthy()
  const history = useApi(
    getWithdrawalHistory,
    { page: 1, page_size: 20 },
    {
      revalidateOnFocus: true,
      // Every return to the page asks, however soon after the last question.
      focusThrottleInterval: 0,
      dedupingInterval: 0,
      refreshInterval: pending && !live && !missing.current ? PENDING_STATUS_POLL_MS : 0,
    },
  )
  // Without the history the submitted order is what is shown, and it is not asked for again.
  missing.current = isEndpointMissing(history.error)
  useLiveEvent(
    'withdrawal',
    (event) => {
      if (event.order_no === order.order_no && event.status !== 'pending') void history.mutate()
    },
    [order.order_no, history.mutate],
  )
  // A snapshot: the stream may have missed the decision (it came before the stream opened).
  useLiveEvent('snapshot', () => void history.mutate(), [history.mutate])
  const latest = history.data?.list.find((o) => o.order_no === order.order_no) ?? order
  useEffect(() => {
    if (pending && latest.status !== 'pending') {
      setPending(false)
      refreshBalance().catch(() => undefined)
    }
  }, [pending, latest.status])
  return latest
}

function WithdrawResult({ order: submitted, onAgain }: { order: Withdrawal; onAgain: () => void }) {
  const order = useLatestStatus(submitted)
  return (
    <section className="wallet-card" aria-label="提现结果" data-testid="withdraw-result">
      <div className="wallet-card__row">
        <h2 className="wallet-card__title">提现申请已提交</h2>
        <StatusTag status={order.status} label={order.status_label} />
      </div>
      <dl className="wallet-facts">
        <div>
          <dt>订单号</dt>
          <dd data-testid="withdraw-order-no">{order.order_no}</dd>
        </div>
        <div>
          <dt>到账金额</dt>
          <dd>
            <AmountText value={order.amount} />
          </dd>
        </div>
        <div>
          <dt>手续费</dt>
          <dd>
            <AmountText value={order.fee} />
          </dd>
        </div>
        <div>
          <dt>提现地址</dt>
          <dd className="wallet-address">{order.address}</dd>
        </div>
        <div>
          <dt>提交时间（{TIME_ZONE_LABEL}）</dt>
          <dd>
            <DateTimeText ms={order.created_at} />
          </dd>
        </div>
      </dl>
      <div className="wallet-actions">
        <Link className="text-button" to={`${paths.topUpHistory}?tab=withdraw`}>
          查看提现记录
        </Link>
        <Button block fill="outline" onClick={onAgain}>
          继续提现
        </Button>
      </div>
    </section>
  )
}
