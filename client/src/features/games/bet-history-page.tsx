import { Amount } from '@client/components/amount/amount'
import { DateTimeText } from '@client/components/date-time-text/date-time-text'
import { PageShell } from '@client/components/page-shell/page-shell'
import { PagedListView } from '@client/components/paged-list/paged-list'
import { RequireLogin } from '@client/components/require-login/require-login'
import { paths } from '@client/config/paths'
import { pickedDate } from '@client/lib/date-time'
import { useShownAmount } from '@client/lib/hide-amount'
import { callApi } from '@client/lib/http'
import { usePagedList } from '@client/lib/use-paged-list'
import { BET_STATUS_LABEL, BET_STATUSES, betHistory } from '@shared/contract/games'
import { GAME_CODES, type GameCode } from '@shared/games/config'
import DatePicker from 'antd-mobile/es/components/date-picker'
import Empty from 'antd-mobile/es/components/empty'
import List from 'antd-mobile/es/components/list'
import Selector from 'antd-mobile/es/components/selector'
import { useState } from 'react'
import { Link } from 'react-router-dom'
import { DrawNumbers } from './draw-numbers'
import { GAME_NAMES, verifyPath } from './game-links'
import './games.css'

type Status = (typeof BET_STATUSES)[number]

export interface BetFilters {
  game?: GameCode
  status?: Status
  date_from?: string
  date_to?: string
}

export function BetHistoryPage() {
  return (
    <PageShell title="投注记录" fallback={paths.mine}>
      <RequireLogin>
        <BetHistory />
      </RequireLogin>
    </PageShell>
  )
}

function BetHistory() {
  const [filters, setFilters] = useState<BetFilters>({})
  return (
    <>
      <Filters filters={filters} onChange={setFilters} />
      <BetList filters={filters} />
    </>
  )
}

function Filters({ filters, onChange }: { filters: BetFilters; onChange: (f: BetFilters) => void }) {
  const [picking, setPicking] = useState<'from' | 'to' | null>(null)
  return (
    <div className="games-filters">
      <Selector
        aria-label="游戏"
        options={[
          { label: '全部游戏', value: '' },
          ...GAME_CODES.map((g) => ({ label: GAME_NAMES[g], value: g })),
        ]}
        value={[filters.game ?? '']}
        onChange={(v) => {
          const game = GAME_CODES.find((g) => g === v[0])
          onChange({ ...filters, game })
        }}
      />
      <Selector
        aria-label="状态"
        options={[
          { label: '全部状态', value: '' },
          ...BET_STATUSES.map((s) => ({ label: BET_STATUS_LABEL[s], value: s })),
        ]}
        value={[filters.status ?? '']}
        onChange={(v) => onChange({ ...filters, status: BET_STATUSES.find((s) => s === v[0]) })}
      />
      <button type="button" className="games-quick" onClick={() => setPicking('from')}>
        开始 {filters.date_from ?? '不限'}
      </button>
      <button type="button" className="games-quick" onClick={() => setPicking('to')}>
        结束 {filters.date_to ?? '不限'}
      </button>
      {filters.date_from || filters.date_to ? (
        <button
          type="button"
          className="games-quick"
          onClick={() => onChange({ ...filters, date_from: undefined, date_to: undefined })}
        >
          清除日期
        </button>
      ) : null}
      <DatePicker
        visible={picking !== null}
        onClose={() => setPicking(null)}
        max={new Date()}
        onConfirm={(d) =>
          onChange(
            picking === 'from'
              ? { ...filters, date_from: pickedDate(d) }
              : { ...filters, date_to: pickedDate(d) },
          )
        }
      />
    </div>
  )
}

function BetList({ filters }: { filters: BetFilters }) {
  const money = useShownAmount()
  const list = usePagedList(
    filters,
    (page) => callApi(betHistory, { query: { ...filters, ...page } }),
    (b) => b.id,
  )
  // Every page carries the totals of the filtered bets; the latest page's are the freshest.
  const summary = list.pages[list.pages.length - 1]?.summary ?? null

  return (
    <>
      {summary ? (
        <div className="games-counts" data-testid="bet-summary">
          <span>
            投注 <Amount value={summary.stake} unit="" />
          </span>
          <span>
            派奖 <Amount value={summary.payout} unit="" />
          </span>
        </div>
      ) : null}
      <PagedListView
        list={list}
        variant="rows"
        label="投注记录"
        testId="bet-history"
        timeZoneNote
        empty={<Empty description="暂无投注记录" />}
        renderItem={(b) => (
          <List.Item
            data-testid="bet-row"
            data-bet-id={b.id}
            description={
              <>
                <div>
                  {b.game_name} 第 {b.round_id} 期 · <DateTimeText ms={b.placed_at} />
                </div>
                <div className="games-bet-result" data-testid="bet-result">
                  开奖 {b.result ? <DrawNumbers draw={b.result} /> : <span>待开奖</span>}
                </div>
                <Link className="games-tap" to={verifyPath(b.game, b.round_id)}>
                  验证结果
                </Link>
              </>
            }
            extra={
              <span data-status={b.status}>
                {BET_STATUS_LABEL[b.status]}
                <br />
                {b.status === 'won' || b.status === 'draw' ? (
                  <Amount value={b.payout} signed unit="" />
                ) : null}
              </span>
            }
          >
            {b.label} · {money(b.stake)} @ <span data-public-figure>{b.odds}</span>
          </List.Item>
        )}
      />
    </>
  )
}
