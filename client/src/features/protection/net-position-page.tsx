import { Amount } from '@client/components/amount/amount'
import { PageShell, ReadState } from '@client/components/page-shell/page-shell'
import { RequireLogin } from '@client/components/require-login/require-login'
import { SegmentedControl } from '@client/components/segmented-control/segmented-control'
import { paths } from '@client/config/paths'
import { signedAmount } from '@client/lib/format'
import {
  NET_POSITION_SPAN_LABEL,
  NET_POSITION_SPANS,
  type NetPositionTotals,
  netPosition,
} from '@shared/contract/protection'
import Button from 'antd-mobile/es/components/button'
import List from 'antd-mobile/es/components/list'
import { useState } from 'react'
import { NetPositionChart } from './net-position-chart'
import { useProtectionRead } from './use-protection-read'
import './protection.css'

type Span = (typeof NET_POSITION_SPANS)[number]

/** 输赢统计: deposits, withdrawals, stakes, payouts and net result, from the ledger. */
export function NetPositionPage() {
  return (
    <PageShell title="输赢统计" fallback={paths.responsible}>
      <RequireLogin>
        <NetPosition />
      </RequireLogin>
    </PageShell>
  )
}

function NetPosition() {
  const [span, setSpan] = useState<Span>('today')
  const [range, setRange] = useState<{ start_date: string; end_date: string } | null>(null)
  const [draft, setDraft] = useState({ start_date: '', end_date: '' })
  const res = useProtectionRead(netPosition, range ?? {})
  const data = res.data
  const totals = data?.spans.find((s) => s.span === span)
  // The chart shows the last 7 days for today and 7 days, else the whole range (30 days by default).
  const days = span === '7d' || span === 'today' ? data?.daily.slice(-7) : data?.daily

  return (
    <div className="protection-page">
      <SegmentedControl
        label="统计区间"
        value={span}
        onChange={setSpan}
        options={NET_POSITION_SPANS.map((s) => ({ label: NET_POSITION_SPAN_LABEL[s], value: s }))}
      />
      {span === 'range' ? (
        <form
          className="protection-range"
          onSubmit={(e) => {
            e.preventDefault()
            if (draft.start_date && draft.end_date) setRange({ ...draft })
          }}
        >
          <input
            type="date"
            aria-label="开始日期"
            value={draft.start_date}
            onChange={(e) => setDraft({ ...draft, start_date: e.target.value })}
          />
          <span>至</span>
          <input
            type="date"
            aria-label="结束日期"
            value={draft.end_date}
            onChange={(e) => setDraft({ ...draft, end_date: e.target.value })}
          />
          <Button size="small" type="submit" color="primary" disabled={!draft.start_date || !draft.end_date}>
            查询
          </Button>
        </form>
      ) : null}
      <ReadState availability={res.availability} onRetry={() => res.mutate()}>
        {totals && days ? (
          <>
            <p className="protection-help" data-testid="net-span">
              {totals.start_date === totals.end_date
                ? totals.start_date
                : `${totals.start_date} 至 ${totals.end_date}`}
              （北京时间）
            </p>
            <Totals totals={totals} />
            <NetPositionChart days={days} />
          </>
        ) : null}
      </ReadState>
      <p className="protection-help">数据来自资金明细，以 USDT 计；净输赢 = 派奖 − 投注。</p>
    </div>
  )
}

function Totals({ totals }: { totals: NetPositionTotals }) {
  return (
    <List mode="card" data-testid="net-totals">
      <List.Item extra={<Amount value={totals.deposits} unit="" />}>充值</List.Item>
      {Number(totals.transfer_bets) !== 0 ? (
        <List.Item extra={<Amount value={totals.transfer_bets} unit="" />}>转账投注（链上转入）</List.Item>
      ) : null}
      <List.Item extra={<Amount value={totals.withdrawals} unit="" />}>提现（含手续费）</List.Item>
      <List.Item extra={<Amount value={totals.stakes} unit="" />}>投注</List.Item>
      <List.Item extra={<Amount value={totals.payouts} unit="" />}>派奖（含和局退款）</List.Item>
      <List.Item
        extra={
          <strong className={totals.net_result.startsWith('-') ? 'reality-check__loss' : undefined}>
            <SignedAmount value={totals.net_result} />
          </strong>
        }
      >
        净输赢
      </List.Item>
      {Number(totals.other) !== 0 ? (
        <List.Item extra={<SignedAmount value={totals.other} />}>其他（返水、赠送、兑换等）</List.Item>
      ) : null}
    </List>
  )
}

/** A signed total (lib/format.ts `signedAmount`), or the mask while amounts are hidden. */
function SignedAmount({ value }: { value: string }) {
  return <Amount value={signedAmount(value)} unit="" />
}
