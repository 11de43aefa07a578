import { AmountInput } from '@client/components/amount-input/amount-input'
import { availabilityOf, PageShell, ReadState } from '@client/components/page-shell/page-shell'
import { RequireLogin } from '@client/components/require-login/require-login'
import { paths } from '@client/config/paths'
import { truncate } from '@client/lib/format'
import { useShownAmount } from '@client/lib/hide-amount'
import { callApi } from '@client/lib/http'
import { refreshBalance } from '@client/lib/session-actions'
import { SubmissionKey } from '@client/lib/submission-key'
import { useApi } from '@client/lib/use-api'
import { useBusy } from '@client/lib/use-busy'
import type { DataOf } from '@shared/contract/endpoint'
import { BET_STATUS_LABEL, betAddresses, sendTransferBet, transferHistory } from '@shared/contract/games'
import Button from 'antd-mobile/es/components/button'
import List from 'antd-mobile/es/components/list'
import Selector from 'antd-mobile/es/components/selector'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { useState } from 'react'
import { Link } from 'react-router-dom'
import { verifyPath } from './game-links'
import { settlementWatch } from './settlement-watch'
import './games.css'

type Transfer = DataOf<typeof sendTransferBet>

const KIND_NAMES: Record<Transfer['kind'], string> = {
  big_small: '大小',
  odd_even: '单双',
  banker_player: '庄闲和',
}

/** `/test-bet`: send a simulated transfer from a bound address and watch the bet it becomes. */
export function TestBetPage() {
  return (
    <PageShell title="试玩投注" fallback={paths.betAddresses}>
      <RequireLogin>
        <TestBet />
      </RequireLogin>
    </PageShell>
  )
}

function TestBet() {
  const addresses = useApi(betAddresses, undefined)
  // A pending bet is settled at its block: look again every few seconds.
  // Only while the server answers: an upstream without the history is not asked again and again.
  const history = useApi(
    transferHistory,
    { page: 1, page_size: 20 },
    { refreshInterval: (latest) => (latest ? 3_000 : 0) },
  )
  const historyMissing = availabilityOf(history.data, history.error) === 'missing'
  const money = useShownAmount()
  const [from, setFrom] = useState<string | null>(null)
  const [to, setTo] = useState<string | null>(null)
  const [amount, setAmount] = useState('')
  const [sending, run] = useBusy()
  const [last, setLast] = useState<Transfer | null>(null)
  // One key per attempt (docs/client.md#submission-keys).
  const [key] = useState(() => new SubmissionKey())

  if (!addresses.data)
    return (
      <ReadState
        availability={availabilityOf(addresses.data, addresses.error)}
        onRetry={() => void addresses.mutate()}
        note="当前服务暂不支持转账投注。"
        loading={<Skeleton.Paragraph lineCount={6} animated />}
      >
        {null}
      </ReadState>
    )
  const { list, receiving } = addresses.data
  const chosenFrom = from ?? list[0]?.address ?? null
  const chosenTo = to ?? receiving[0]?.address ?? null
  const rule = receiving.find((r) => r.address === chosenTo)?.rule

  const send = () =>
    run(async () => {
      if (!chosenFrom || !chosenTo) return
      const body = { from_address: chosenFrom, to_address: chosenTo, amount: amount.trim() }
      // The key is kept only for a retry of an attempt that got no answer.
      const t = await key.send(body, (idempotencyKey) =>
        callApi(sendTransferBet, { body }, { idempotencyKey }),
      )
      setLast(t)
      await Promise.all([history.mutate(), refreshBalance()])
      // A transfer played as a bet is followed until settled, like one placed in the app.
      if (t.bet) settlementWatch.track([t.bet])
    })

  const fresh = last ? (history.data?.list.find((t) => t.id === last.id) ?? last) : null

  if (list.length === 0)
    return (
      <div className="games-slip">
        <p>请先绑定一个投注地址，再从它发起转账投注。</p>
        <Link to={paths.betAddresses}>去绑定投注地址</Link>
      </div>
    )

  return (
    <>
      <div className="games-slip">
        <div className="games-slip__group-title">转出地址（已绑定）</div>
        <Selector
          options={list.map((a) => ({ label: a.label || truncate(a.address, 6, 4), value: a.address }))}
          value={chosenFrom ? [chosenFrom] : []}
          onChange={(v) => v[0] && setFrom(v[0])}
        />
        <div className="games-slip__group-title">收款地址（玩法）</div>
        <Selector
          options={receiving.map((r) => ({
            label: `${KIND_NAMES[r.kind]} ${truncate(r.address, 4, 4)}`,
            value: r.address,
          }))}
          value={chosenTo ? [chosenTo] : []}
          onChange={(v) => v[0] && setTo(v[0])}
        />
        {rule ? <p className="games-draw__labels">{rule}</p> : null}
        <AmountInput
          label="转账金额"
          unit="USDT"
          placeholder="转账金额（个位数决定投注项）"
          value={amount}
          onChange={setAmount}
        />
        <Button block color="primary" loading={sending} onClick={() => void send()}>
          发送转账投注
        </Button>
      </div>
      {fresh ? <TransferResult transfer={fresh} money={money} /> : null}
      {historyMissing ? null : (
        <List header="最近的转账投注" data-testid="transfer-history">
          {(history.data?.list ?? []).map((t) => (
            <TransferRow key={t.id} transfer={t} money={money} />
          ))}
        </List>
      )}
    </>
  )
}

function transferState(t: Transfer): string {
  if (t.status === 'refunded') return `已退回${t.reason ? `：${t.reason}` : ''}`
  return t.bet ? BET_STATUS_LABEL[t.bet.status] : '已投注'
}

function TransferResult({ transfer, money }: { transfer: Transfer; money: (v: string) => string }) {
  return (
    <div className="games-step" data-testid="transfer-result">
      <div>
        转账 {money(transfer.amount)} USDT · 区块 {transfer.height}
      </div>
      <div>{transferState(transfer)}</div>
      {transfer.bet ? (
        <div>
          {transfer.bet.label} · 赔率 {transfer.bet.odds}
          {transfer.bet.status === 'won' || transfer.bet.status === 'draw'
            ? ` · 派奖 ${money(transfer.bet.payout)}`
            : ''}{' '}
          {transfer.bet.status !== 'pending' ? (
            <Link to={verifyPath(transfer.bet.game, transfer.bet.round_id)}>验证</Link>
          ) : null}
        </div>
      ) : null}
    </div>
  )
}

function TransferRow({ transfer, money }: { transfer: Transfer; money: (v: string) => string }) {
  return (
    <List.Item
      description={`${truncate(transfer.from_address, 6, 4)} → ${truncate(transfer.to_address, 6, 4)} · 区块 ${transfer.height}`}
      extra={transferState(transfer)}
    >
      {money(transfer.amount)} USDT{transfer.bet ? ` · ${transfer.bet.label}` : ''}
    </List.Item>
  )
}
