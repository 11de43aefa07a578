import { Amount } from '@client/components/amount/amount'
import { HideAmountToggle } from '@client/components/balance-text/balance-text'
import { NumText } from '@client/components/num-text/num-text'
import { availabilityOf, PageShell, ReadState } from '@client/components/page-shell/page-shell'
import { PagedListView } from '@client/components/paged-list/paged-list'
import { RefreshButton } from '@client/components/refresh-button/refresh-button'
import { RequireLogin } from '@client/components/require-login/require-login'
import { paths } from '@client/config/paths'
import { formatDateTime } from '@client/lib/date-time'
import { useShownAmount } from '@client/lib/hide-amount'
import { callApi } from '@client/lib/http'
import { session } from '@client/lib/session-store'
import { SubmissionKey } from '@client/lib/submission-key'
import { showToast } from '@client/lib/toast'
import { useApi } from '@client/lib/use-api'
import { useBusy } from '@client/lib/use-busy'
import { usePagedList } from '@client/lib/use-paged-list'
import { agentRebateConfig } from '@shared/contract/agent'
import { rebateClaim, rebateHistory, rebateSummary } from '@shared/contract/content'
import { toMicro } from '@shared/money'
import Button from 'antd-mobile/es/components/button'
import Empty from 'antd-mobile/es/components/empty'
import List from 'antd-mobile/es/components/list'
import Tag from 'antd-mobile/es/components/tag'
import { useState } from 'react'
import './agent.css'

/** A tier's turnover band, e.g. "1000.00 – 5000.00" or "≥ 50000.00". */
export function tierBand(min: string, max: string | null): string {
  return max === null ? `≥ ${min}` : `${min} – ${max}`
}

/** Whether there is anything to claim: compared in micro-units, never as a float. */
export function canClaim(claimable: string, claimedToday: boolean): boolean {
  return !claimedToday && toMicro(claimable) > 0
}

function BackwaterContent() {
  const amount = useShownAmount()
  const summary = useApi(rebateSummary, undefined)
  const config = useApi(agentRebateConfig, undefined)
  const history = usePagedList(
    {},
    (page) => callApi(rebateHistory, { query: page }),
    (item) => item.id,
  )
  const [claiming, run] = useBusy()
  // One key per claim: a retry after a lost answer is the same claim; after any answer, even a
  // refusal, the next tap is a new claim (docs/client.md#submission-keys).
  const [claimKey] = useState(() => new SubmissionKey())

  const s = summary.data
  const summaryState = availabilityOf(summary.data, summary.error)

  const claim = () =>
    run(async () => {
      try {
        const result = await claimKey.send({}, (idempotencyKey) =>
          callApi(rebateClaim, { body: {} }, { idempotencyKey }),
        )
        session.setBalance(result.balance)
        showToast(`领取成功 ${amount(result.amount)} USDT`, 'success')
        await Promise.allSettled([summary.mutate(), history.refresh()])
      } catch {
        // callApi showed why (already claimed today, nothing to claim…); the summary may have moved.
        void summary.mutate()
      }
    })

  const refresh = () => Promise.all([summary.mutate(), history.refresh(), config.mutate()])

  return (
    <div className="agent">
      {summaryState === 'missing' ? (
        <ReadState availability="missing" note="当前服务暂不支持领取返水。">
          {null}
        </ReadState>
      ) : (
        <section className="agent__summary" aria-label="今日返水">
          <div className="agent__stat">
            <span className="agent__stat-label">今日流水</span>
            <span className="agent__stat-value" data-testid="today-turnover">
              {s ? amount(s.today_turnover) : '—'}
            </span>
          </div>
          <div className="agent__stat">
            <span className="agent__stat-label">今日返水比例</span>
            <span className="agent__stat-value">{s ? (s.today_tier > 0 ? s.rate : '未达标') : '—'}</span>
          </div>
          <div className="agent__stat">
            <span className="agent__stat-label">今日返水</span>
            <span className="agent__stat-value">{s ? amount(s.today_rebate) : '—'}</span>
          </div>
          <div className="agent__stat">
            <span className="agent__stat-label">可领取</span>
            <span className="agent__stat-value" data-testid="claimable">
              {s ? amount(s.claimable) : '—'}
            </span>
          </div>
          {s?.next_tier ? (
            <p className="agent__tip agent__summary-wide">
              再投注 {amount(s.next_tier.need_turnover)} USDT 可升至第{s.next_tier.tier}档（{s.next_tier.rate}
              ）
            </p>
          ) : null}
          {s ? (
            <p className="agent__tip agent__summary-wide">
              其中返水 {amount(s.claimable_rebate)}，下级返佣 {amount(s.claimable_commission)}；可领取近{' '}
              {s.claim_window_days} 天未领取的金额，每天可领取一次。
            </p>
          ) : null}
          <Button
            className="agent__summary-wide"
            block
            color="primary"
            loading={claiming}
            disabled={!s || !canClaim(s.claimable, s.claimed_today)}
            onClick={claim}
          >
            {s?.claimed_today ? '今日已领取' : '一键领取'}
          </Button>
        </section>
      )}

      {s && s.days.length > 0 ? (
        <List className="agent__list" header="待领取明细">
          {s.days.map((day) => (
            <List.Item
              key={day.date}
              description={`流水 ${amount(day.turnover)} · 比例 ${day.rate} · 团队流水 ${amount(day.team_turnover)}`}
              extra={`${amount(day.rebate)} + ${amount(day.commission)}`}
            >
              {day.date}
            </List.Item>
          ))}
        </List>
      ) : null}

      <ReadState
        availability={availabilityOf(config.data, config.error)}
        onRetry={() => void config.mutate()}
        missing="hide"
      >
        <List className="agent__list" header="返水比例（按当日流水）" data-public-figure>
          {config.data?.tiers.map((tier) => (
            <List.Item
              key={tier.tier}
              extra={tier.rate}
              description={tierBand(tier.min_turnover, tier.max_turnover)}
            >
              第{tier.tier}档
              {s && s.today_tier === tier.tier ? <Tag color="var(--app-primary-fill)">当前</Tag> : null}
            </List.Item>
          ))}
          {config.data?.commission_levels.map((level) => (
            <List.Item key={`level-${level.level}`} extra={level.rate}>
              {level.level}级下级返佣
            </List.Item>
          ))}
        </List>
      </ReadState>

      <PagedListView
        list={history}
        variant="rows"
        className="agent__list"
        header={
          <span className="agent__toolbar">
            领取记录 <RefreshButton label="刷新返水" onRefresh={refresh} />
          </span>
        }
        label="领取记录"
        more="button"
        pullToRefresh={false}
        timeZoneNote
        empty={<Empty className="agent__empty" description="暂无领取记录" />}
        renderItem={(item) => (
          <List.Item
            description={
              <NumText
                text={`${formatDateTime(item.created_at)} · 返水 ${amount(item.rebate)} · 返佣 ${amount(item.commission)}`}
              />
            }
            extra={<Amount value={item.amount} signed unit="" />}
          >
            {item.claim_date}
          </List.Item>
        )}
      />
    </div>
  )
}

export function BackwaterPage() {
  return (
    <PageShell title="返水" right={<HideAmountToggle />} fallback={paths.mine}>
      <RequireLogin>
        <BackwaterContent />
      </RequireLogin>
    </PageShell>
  )
}
