import DatePicker from 'antd-mobile/es/components/date-picker'
import Empty from 'antd-mobile/es/components/empty'
import InfiniteScroll from 'antd-mobile/es/components/infinite-scroll'
import List from 'antd-mobile/es/components/list'
import PullToRefresh from 'antd-mobile/es/components/pull-to-refresh'
import Selector from 'antd-mobile/es/components/selector'
import { useCallback, useRef, useState } from 'react'
import { Link } from 'react-router-dom'
import type { DataOf } from '../../../../shared/contract/endpoint'
import { BET_STATUS_LABEL, BET_STATUSES, betHistory } from '../../../../shared/contract/games'
import { GAME_CODES, type GameCode } from '../../../../shared/games/config'
import { PageShell } from '../../components/page-shell/page-shell'
import { RequireLogin } from '../../components/require-login/require-login'
import { paths } from '../../config/paths'
import { formatDateTime } from '../../lib/date-time'
import { callApi } from '../../lib/http'
import { useSession } from '../../lib/session-store'
import { amountText } from './bet-slip'
import { GAME_NAMES, verifyPath } from './game-links'
import './games.css'

type Bet = DataOf<typeof betHistory>['list'][number]
type Status = (typeof BET_STATUSES)[number]

export interface BetFilters {
  game?: GameCode
  status?: Status
  date_from?: string
  date_to?: string
}

const PAGE_SIZE = 20

/** 2026-11-22 for a local date: the server filters by the player's local day. */
export const localDate = (d: Date): string =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`

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
      <BetList key={JSON.stringify(filters)} filters={filters} />
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
              ? { ...filters, date_from: localDate(d) }
              : { ...filters, date_to: localDate(d) },
          )
        }
      />
    </div>
  )
}

function BetList({ filters }: { filters: BetFilters }) {
  const hidden = useSession((s) => s.hideAmount)
  const [rows, setRows] = useState<Bet[]>([])
  const [hasMore, setHasMore] = useState(true)
  const [summary, setSummary] = useState<{ stake: string; payout: string } | null>(null)
  const page = useRef(1)

  const loadMore = useCallback(async () => {
    const res = await callApi(betHistory, { query: { ...filters, page: page.current, page_size: PAGE_SIZE } })
    page.current += 1
    setRows((r) => [...r, ...res.list.filter((b) => !r.some((x) => x.id === b.id))])
    setSummary(res.summary)
    setHasMore(res.has_more)
  }, [filters])

  /** Pull-to-refresh: the first page again, with bets placed or settled since. */
  const reload = async () => {
    const res = await callApi(betHistory, { query: { ...filters, page: 1, page_size: PAGE_SIZE } })
    page.current = 2
    setRows(res.list)
    setSummary(res.summary)
    setHasMore(res.has_more)
  }

  const money = (v: string) => (hidden ? '****' : amountText(v))
  return (
    <PullToRefresh onRefresh={reload}>
      {summary ? (
        <div className="games-counts" data-testid="bet-summary">
          <span>投注 {money(summary.stake)}</span>
          <span>派奖 {money(summary.payout)}</span>
        </div>
      ) : null}
      <List data-testid="bet-history">
        {rows.map((b) => (
          <List.Item
            key={b.id}
            data-testid="bet-row"
            data-bet-id={b.id}
            description={
              <>
                <div>
                  {b.game_name} 第 {b.round_id} 期 · {formatDateTime(b.placed_at)}
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
                {b.status === 'won' || b.status === 'draw' ? `+${money(b.payout)}` : ''}
              </span>
            }
          >
            {b.label} · {money(b.stake)} @ {b.odds}
          </List.Item>
        ))}
      </List>
      {!hasMore && rows.length === 0 ? <Empty description="暂无投注记录" /> : null}
      <InfiniteScroll loadMore={loadMore} hasMore={hasMore} />
    </PullToRefresh>
  )
}
