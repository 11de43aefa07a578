import { AmountInput } from '@client/components/amount-input/amount-input'
import { DateTimeText } from '@client/components/date-time-text/date-time-text'
import { PageShell } from '@client/components/page-shell/page-shell'
import { QrCode } from '@client/components/qr-code/qr-code'
import { RequireLogin } from '@client/components/require-login/require-login'
import { paths } from '@client/config/paths'
import { copyText } from '@client/lib/copy'
import { TIME_ZONE_LABEL } from '@client/lib/date-time'
import { isEndpointMissing } from '@client/lib/endpoint-status'
import { callApi } from '@client/lib/http'
import { useLiveEvent, useLivePlayerHealthy } from '@client/lib/live'
import { refreshBalance } from '@client/lib/session-actions'
import { session } from '@client/lib/session-store'
import { SubmissionKey } from '@client/lib/submission-key'
import { showToast } from '@client/lib/toast'
import { useApi } from '@client/lib/use-api'
import { useBusy } from '@client/lib/use-busy'
import { type DepositOrder, getDepositOrder, getPayInfoUsdt, usdtPay } from '@shared/contract/wallet'
import { formatMoney, toMicro } from '@shared/money'
import Button from 'antd-mobile/es/components/button'
import ProgressBar from 'antd-mobile/es/components/progress-bar'
import { useEffect, useRef, useState } from 'react'
import { Link, useSearchParams } from 'react-router-dom'
import { AmountText } from './amount-text'
import { FormError } from './form-error'
import { StatusTag } from './status-tag'
import { WalletBalance } from './wallet-balance'
import { parseAmount } from './wallet-money'
import './wallet.css'

/** How often a pending order is asked for again. */
const ORDER_POLL_MS = 2_000
const QUICK_AMOUNTS = ['50', '100', '500', '1000'] as const
const ORDER_PARAM = 'order'

export function TopUpPage() {
  return (
    <PageShell
      title="充值"
      right={
        <Link className="wallet-nav-link" to={paths.topUpHistory}>
          记录
        </Link>
      }
    >
      <RequireLogin>
        <TopUp />
      </RequireLogin>
    </PageShell>
  )
}

function TopUp() {
  const { data: info, error, mutate } = useApi(getPayInfoUsdt, undefined)
  const [params, setParams] = useSearchParams()
  const orderId = Number(params.get(ORDER_PARAM)) || null

  return (
    <div className="wallet-page">
      <WalletBalance />
      {info ? (
        <>
          <section className="wallet-card wallet-deposit" aria-label="充值地址">
            <div className="wallet-deposit__network">
              <span className="wallet-chip">USDT</span>
              <span className="wallet-chip wallet-chip--network">{info.network}</span>
            </div>
            <QrCode text={info.qr_text} label="充值地址二维码" />
            <p className="wallet-deposit__label">充值地址（{info.network}）</p>
            <p className="wallet-address" data-testid="deposit-address">
              {info.address}
            </p>
            <Button size="small" color="primary" fill="outline" onClick={() => void copyText(info.address)}>
              复制地址
            </Button>
            <div className="wallet-warning" role="note">
              <strong>注意：</strong>
              {info.notice}
            </div>
            <dl className="wallet-facts">
              <div>
                <dt>最低充值</dt>
                <dd data-public-figure>{info.min_amount} USDT</dd>
              </div>
              <div>
                <dt>到账确认</dt>
                <dd>
                  {info.confirmations} 个网络确认，约 {Math.max(1, Math.round(info.chain_delay_seconds / 60))}{' '}
                  分钟
                </dd>
              </div>
            </dl>
          </section>
          {orderId === null ? (
            <NewOrder
              minAmount={info.min_amount}
              maxAmount={info.max_amount}
              onCreated={(order) => setParams({ [ORDER_PARAM]: String(order.id) }, { replace: true })}
            />
          ) : (
            <OrderStatus id={orderId} onDone={() => setParams({}, { replace: true })} />
          )}
        </>
      ) : isEndpointMissing(error) ? (
        <p className="wallet-note" data-testid="endpoint-missing">
          当前服务暂不支持在此充值，请联系客服。
        </p>
      ) : error ? (
        <p className="wallet-note">
          充值信息加载失败，
          <button type="button" className="text-button" onClick={() => void mutate()}>
            重试
          </button>
        </p>
      ) : (
        <p className="wallet-note">加载中…</p>
      )}
    </div>
  )
}

function NewOrder({
  minAmount,
  maxAmount,
  onCreated,
}: {
  minAmount: string
  maxAmount: string
  onCreated: (order: DepositOrder) => void
}) {
  const [amount, setAmount] = useState('')
  const [problem, setProblem] = useState('')
  const [busy, run] = useBusy()
  const [key] = useState(() => new SubmissionKey())

  const check = (): string => {
    const micro = parseAmount(amount)
    if (micro === null || micro <= 0) return '请输入充值金额'
    if (micro < toMicro(minAmount)) return `最低充值 ${minAmount} USDT`
    if (micro > toMicro(maxAmount)) return `单笔最高充值 ${maxAmount} USDT`
    return ''
  }

  const submit = async () => {
    const found = check()
    setProblem(found)
    const micro = parseAmount(amount)
    if (found || micro === null) return
    const body = { amount: formatMoney(micro) }
    await run(async () => {
      try {
        const order = await callApi(usdtPay, { body }, { idempotencyKey: key.keyFor(body) })
        key.settle()
        showToast('充值订单已创建，请按订单金额转账', 'success')
        onCreated(order)
      } catch (err) {
        key.settle(err)
      }
    })
  }

  return (
    <section className="wallet-card" aria-label="充值金额">
      <h2 className="wallet-card__title">充值金额</h2>
      <AmountInput
        label="充值金额"
        unit="USDT"
        placeholder={`最低 ${minAmount} USDT`}
        value={amount}
        onChange={(value) => {
          setAmount(value)
          setProblem('')
        }}
        quick={QUICK_AMOUNTS}
      />
      <FormError message={problem} />
      <Button block color="primary" size="large" loading={busy} onClick={submit}>
        提交充值订单
      </Button>
      <p className="wallet-note">提交后请向上方地址转入与订单相同金额的 USDT，到账后余额自动增加。</p>
    </section>
  )
}

function OrderStatus({ id, onDone }: { id: number; onDone: () => void }) {
  // The push channel's `deposit` event brings the confirmation; without it, the order is polled,
  // and a server without the order endpoint is not asked again and again.
  const missing = useRef(false)
  const live = useLivePlayerHealthy()
  const {
    data: order,
    error,
    mutate,
  } = useApi(
    getDepositOrder,
    { id },
    {
      refreshInterval: (latest) =>
        missing.current || latest?.status === 'confirmed' || live ? 0 : ORDER_POLL_MS,
    },
  )
  missing.current = isEndpointMissing(error)
  useLiveEvent(
    'deposit',
    (event) => {
      // The order is read again once, for its status label and confirmations.
      if (event.id === id) void mutate()
    },
    [id, mutate],
  )
  // A snapshot: the stream may have missed the confirmation (it came before the stream opened).
  useLiveEvent('snapshot', () => void mutate(), [mutate])
  const seenPending = useRef(false)

  useEffect(() => {
    if (!order) return
    if (order.status === 'pending') seenPending.current = true
    else if (seenPending.current) {
      // Confirmed while the player watched: the balance has grown.
      seenPending.current = false
      showToast(session.get().hideAmount ? '充值已到账' : `充值 ${order.amount} USDT 已到账`, 'success')
      refreshBalance().catch(() => undefined)
    }
  }, [order])

  if (!order && missing.current) {
    return (
      <section className="wallet-card" aria-label="充值订单">
        <p className="wallet-note" data-testid="endpoint-missing">
          订单已提交。当前服务暂不支持查看到账进度，到账后余额会自动增加。
        </p>
        <Button block onClick={onDone}>
          继续充值
        </Button>
      </section>
    )
  }
  if (!order) {
    return (
      <section className="wallet-card" aria-label="充值订单">
        <p className="wallet-note">{error ? '订单加载失败' : '加载订单…'}</p>
        {error ? (
          <Button block onClick={onDone}>
            重新下单
          </Button>
        ) : null}
      </section>
    )
  }
  const pending = order.status === 'pending'
  const percent = Math.floor((order.confirmations * 100) / Math.max(1, order.confirmations_required))
  return (
    <section className="wallet-card" aria-label="充值订单" data-testid="deposit-order">
      <div className="wallet-card__row">
        <h2 className="wallet-card__title">充值订单</h2>
        <StatusTag status={order.status} label={order.status_label} />
      </div>
      <dl className="wallet-facts">
        <div>
          <dt>订单号</dt>
          <dd data-testid="deposit-order-no">{order.order_no}</dd>
        </div>
        <div>
          <dt>金额</dt>
          <dd>
            <AmountText value={order.amount} />
          </dd>
        </div>
        <div>
          <dt>网络确认</dt>
          <dd>
            {order.confirmations}/{order.confirmations_required}
          </dd>
        </div>
        <div>
          <dt>
            {pending ? '预计到账' : '到账时间'}（{TIME_ZONE_LABEL}）
          </dt>
          <dd>
            <DateTimeText ms={pending ? order.expected_at : (order.confirmed_at ?? order.expected_at)} />
          </dd>
        </div>
      </dl>
      <ProgressBar percent={pending ? percent : 100} />
      <p className="wallet-note" aria-live="polite">
        {pending ? '等待区块确认，状态会自动更新…' : '充值已到账，余额已更新。'}
      </p>
      <div className="wallet-actions">
        <Button block fill="outline" onClick={onDone}>
          {pending ? '再充一笔' : '继续充值'}
        </Button>
        <Link className="text-button" to={paths.topUpHistory}>
          查看充值记录
        </Link>
      </div>
    </section>
  )
}
