import { Amount } from '@client/components/amount/amount'
import { AmountInput } from '@client/components/amount-input/amount-input'
import { HideAmountToggle } from '@client/components/balance-text/balance-text'
import { PageShell } from '@client/components/page-shell/page-shell'
import { RequireLogin } from '@client/components/require-login/require-login'
import { SegmentedControl } from '@client/components/segmented-control/segmented-control'
import { paths } from '@client/config/paths'
import { isEndpointMissing } from '@client/lib/endpoint-status'
import { callApi } from '@client/lib/http'
import { session, useSession } from '@client/lib/session-store'
import { SubmissionKey } from '@client/lib/submission-key'
import { showToast } from '@client/lib/toast'
import { useApi } from '@client/lib/use-api'
import { useBusy } from '@client/lib/use-busy'
import { getBalance } from '@shared/contract/account'
import { changeType, type ExchangePair, exchange, type WalletCurrency } from '@shared/contract/wallet'
import { formatMoney } from '@shared/money'
import Button from 'antd-mobile/es/components/button'
import Dialog from 'antd-mobile/es/components/dialog'
import { useState } from 'react'
import { Link } from 'react-router-dom'
import { AmountText } from './amount-text'
import { FormError } from './form-error'
import { exchangeAllAmount, exchangeQuote, parseAmount } from './wallet-money'
import './wallet.css'

export function ExchangePage() {
  return (
    <PageShell
      title="兑换"
      fallback={paths.mine}
      right={
        <Link className="wallet-nav-link" to={`${paths.finance}?type=exchange`}>
          明细
        </Link>
      }
    >
      <RequireLogin>
        <Exchange />
      </RequireLogin>
    </PageShell>
  )
}

const pairKey = (pair: Pick<ExchangePair, 'from' | 'to'>) => `${pair.from}-${pair.to}`

function Exchange() {
  const playerId = useSession((s) => s.playerId)
  const pairs = useApi(changeType, undefined)
  const balances = useApi(getBalance, playerId === null ? null : { player_id: playerId })
  const [chosen, setChosen] = useState<string | null>(null)
  const [amount, setAmount] = useState('')
  const [problem, setProblem] = useState('')
  const [busy, run] = useBusy()
  const [key] = useState(() => new SubmissionKey())

  const list = pairs.data?.pairs ?? []
  const pair = list.find((p) => pairKey(p) === chosen) ?? list[0]
  if (!pair) {
    return (
      <p
        className="wallet-note"
        data-testid={isEndpointMissing(pairs.error) ? 'endpoint-missing' : undefined}
      >
        {isEndpointMissing(pairs.error)
          ? '当前服务暂不支持兑换。'
          : pairs.error
            ? '兑换信息加载失败，请稍后再试。'
            : pairs.data
              ? '暂不支持兑换。'
              : '加载中…'}
      </p>
    )
  }

  const balanceOf = (currency: WalletCurrency): string | null =>
    balances.data ? (currency === 'USDT' ? balances.data.balance : balances.data.trx_balance) : null
  const fromBalance = balanceOf(pair.from)
  const quote = exchangeQuote(amount, pair, fromBalance)

  const switchPair = (key: string) => {
    setChosen(key)
    setAmount('')
    setProblem('')
  }
  const reverse = list.find((p) => p.from === pair.to && p.to === pair.from)

  const confirm = async () => {
    const micro = parseAmount(amount)
    const found = micro === null || !quote ? '请输入兑换数量' : (quote.problem ?? '')
    setProblem(found)
    if (found || micro === null || !quote) return
    const ok = await Dialog.confirm({
      title: '确认兑换',
      content: (
        <div className="wallet-dialog">
          <p>
            支付 {formatMoney(micro)} {pair.from}
          </p>
          <p>
            预计获得 {quote.received} {pair.to}
          </p>
          <p className="wallet-meta">
            汇率 1 {pair.from} = {pair.rate} {pair.to}
          </p>
        </div>
      ),
      confirmText: '确认兑换',
      cancelText: '取消',
    })
    if (!ok) return
    const body = { from: pair.from, to: pair.to, amount: formatMoney(micro) }
    await run(async () => {
      try {
        const result = await callApi(exchange, { body }, { idempotencyKey: key.keyFor(body) })
        key.settle()
        session.setBalance(result.balance)
        void balances.mutate(
          { balance: result.balance, trx_balance: result.trx_balance },
          { revalidate: false },
        )
        setAmount('')
        showToast(
          session.get().hideAmount ? '兑换成功' : `兑换成功，获得 ${result.received} ${result.to}`,
          'success',
        )
      } catch (err) {
        key.settle(err)
      }
    })
  }

  return (
    <div className="wallet-page">
      <section className="wallet-balance" aria-label="余额">
        <div className="wallet-balance__top">
          <span>钱包余额</span>
          <HideAmountToggle />
        </div>
        <div className="wallet-balance__pair">
          <span data-testid="exchange-usdt">
            <AmountText value={balanceOf('USDT') ?? '—'} unit="USDT" />
          </span>
          <span data-testid="exchange-trx">
            <AmountText value={balanceOf('TRX') ?? '—'} unit="TRX" />
          </span>
        </div>
      </section>

      <section className="wallet-card" aria-label="兑换">
        <SegmentedControl
          label="兑换方向"
          value={pairKey(pair)}
          onChange={switchPair}
          options={list.map((p) => ({ label: `${p.from} → ${p.to}`, value: pairKey(p) }))}
        />
        <div className="wallet-exchange__side">
          <span className="wallet-field__label">支付</span>
          <AmountInput
            label={`兑换数量（${pair.from}）`}
            unit={pair.from}
            placeholder={`${pair.min_amount} – ${pair.max_amount}`}
            value={amount}
            onChange={(value) => {
              setAmount(value)
              setProblem('')
            }}
            all={fromBalance === null ? null : exchangeAllAmount(pair, fromBalance)}
          />
        </div>
        {reverse ? (
          <button
            type="button"
            className="wallet-exchange__swap"
            aria-label="交换兑换方向"
            onClick={() => switchPair(pairKey(reverse))}
          >
            ⇅
          </button>
        ) : null}
        <div className="wallet-exchange__side">
          <span className="wallet-field__label">获得（预计）</span>
          <p className="wallet-exchange__quote" data-testid="exchange-quote" aria-live="polite">
            <Amount value={quote ? quote.received : '0'} unit={pair.to} />
          </p>
        </div>
        <dl className="wallet-facts" data-public-figure>
          <div>
            <dt>汇率</dt>
            <dd>
              1 {pair.from} = {pair.rate} {pair.to}
            </dd>
          </div>
          <div>
            <dt>单笔限额</dt>
            <dd>
              {pair.min_amount} – {pair.max_amount} {pair.from}
            </dd>
          </div>
        </dl>
        <FormError message={problem || quote?.problem} />
        <Button block color="primary" size="large" loading={busy} onClick={() => void confirm()}>
          兑换
        </Button>
        <p className="wallet-note">到账数量按汇率计算并向下取整到 6 位小数，以实际到账为准。</p>
      </section>
    </div>
  )
}
