import { HideAmountToggle } from '@client/components/balance-text/balance-text'
import { DateTimeText } from '@client/components/date-time-text/date-time-text'
import { PageShell, ReadState } from '@client/components/page-shell/page-shell'
import { PagedListView } from '@client/components/paged-list/paged-list'
import { RequireLogin } from '@client/components/require-login/require-login'
import { SegmentedControl } from '@client/components/segmented-control/segmented-control'
import { paths } from '@client/config/paths'
import { parsePickedDate, pickedDate } from '@client/lib/date-time'
import { useShownAmount } from '@client/lib/hide-amount'
import { callApi } from '@client/lib/http'
import { showToast } from '@client/lib/toast'
import { usePagedList } from '@client/lib/use-paged-list'
import { agentChildSearch, agentTurnover } from '@shared/contract/agent'
import Button from 'antd-mobile/es/components/button'
import CalendarPicker from 'antd-mobile/es/components/calendar-picker'
import Empty from 'antd-mobile/es/components/empty'
import List from 'antd-mobile/es/components/list'
import SearchBar from 'antd-mobile/es/components/search-bar'
import Tag from 'antd-mobile/es/components/tag'
import { useState } from 'react'
import { daysInRange, maskId } from './agent-format'
import './agent.css'

/** The server refuses longer ranges. */
const MAX_RANGE_DAYS = 31

interface Range {
  start_date: string
  end_date: string
}

function TurnoverView() {
  const amount = useShownAmount()
  // Undefined until the player picks: the server then answers with its own last 7 days.
  const [range, setRange] = useState<Range | undefined>()
  const [picking, setPicking] = useState(false)
  // The report comes with each page of its members; the first page's is the one shown.
  const list = usePagedList(
    range ?? {},
    async (page) => {
      const report = await callApi(agentTurnover, { query: { ...range, ...page } })
      return { ...report.members, report }
    },
    (member) => member.player_id,
  )
  const data = list.pages[0]?.report

  const start = data ? parsePickedDate(data.start_date) : null
  const end = data ? parsePickedDate(data.end_date) : null
  // The picker's selection while it is open; it starts from the range on screen.
  const [draft, setDraft] = useState<[Date, Date] | null>(null)
  const open = () => {
    setDraft(start && end ? [start, end] : null)
    setPicking(true)
  }

  const pick = (value: [Date, Date] | null) => {
    if (!value) return
    const [from, to] = value
    if (daysInRange(from, to) > MAX_RANGE_DAYS) {
      showToast(`查询范围最多${MAX_RANGE_DAYS}天`, 'fail')
      return
    }
    setRange({ start_date: pickedDate(from), end_date: pickedDate(to) })
  }

  const shownRange = data ? `${data.start_date} 至 ${data.end_date}` : '选择日期'

  // The summary and the days come with the members' list: without the endpoint none of it is there.
  if (list.missing) {
    return (
      <ReadState availability="missing" note="当前服务暂不支持团队业绩。">
        {null}
      </ReadState>
    )
  }

  return (
    <>
      <div className="agent__toolbar">
        {/* The name starts with the text on the button, so that saying what is seen selects it. */}
        <Button size="small" onClick={open} aria-label={`${shownRange}，选择日期范围`}>
          {shownRange}
        </Button>
      </div>
      <CalendarPicker
        visible={picking}
        selectionMode="range"
        allowClear={false}
        title="选择日期范围"
        value={draft}
        onChange={setDraft}
        max={new Date()}
        onClose={() => setPicking(false)}
        onConfirm={pick}
      />
      <section className="agent__summary" aria-label="业绩汇总">
        <div className="agent__stat">
          <span className="agent__stat-label">团队流水</span>
          <span className="agent__stat-value">{data ? amount(data.total_turnover) : '—'}</span>
        </div>
        <div className="agent__stat">
          <span className="agent__stat-label">返佣</span>
          <span className="agent__stat-value">{data ? amount(data.total_commission) : '—'}</span>
        </div>
      </section>
      <List className="agent__list" header="每日流水">
        {data?.days.map((day) => (
          <List.Item
            key={day.date}
            description={`${day.bet_count} 笔投注 · ${day.active_members} 人活跃 · 返佣 ${amount(day.commission)}`}
            extra={amount(day.turnover)}
          >
            {day.date}
          </List.Item>
        ))}
      </List>
      <PagedListView
        list={list}
        variant="rows"
        className="agent__list"
        header="成员流水"
        label="成员流水"
        more="button"
        pullToRefresh={false}
        empty={<Empty className="agent__empty" description="该时间段内没有下级流水" />}
        renderItem={(member) => (
          <List.Item
            description={`ID ${maskId(member.player_id)} · ${member.phone} · ${member.bet_count} 笔`}
            extra={amount(member.turnover)}
          >
            {member.nickname} <Tag color="var(--app-primary-fill)">{member.level}级</Tag>
          </List.Item>
        )}
      />
    </>
  )
}

function TeamView() {
  const amount = useShownAmount()
  const [keyword, setKeyword] = useState('')
  const filters = keyword ? { keyword } : {}
  const list = usePagedList(
    filters,
    (page) => callApi(agentChildSearch, { query: { ...filters, ...page } }),
    (member) => member.player_id,
  )
  const search = (value: string) => setKeyword(value.trim())
  return (
    <>
      <SearchBar
        placeholder="输入下级ID或昵称"
        maxLength={32}
        onSearch={search}
        onClear={() => search('')}
        aria-label="搜索下级"
      />
      <PagedListView
        list={list}
        variant="rows"
        className="agent__list"
        header={list.total === null ? '团队成员' : `团队成员（${list.total}）`}
        label="团队成员"
        more="button"
        pullToRefresh={false}
        timeZoneNote
        empty={
          <Empty className="agent__empty" description={keyword ? '没有找到匹配的下级' : '您还没有下级'} />
        }
        renderItem={(member) => (
          <List.Item
            description={
              <>
                ID {maskId(member.player_id)} · {member.phone} · 直属 {member.direct_count} 人
                <br />
                今日流水 {amount(member.today_turnover)} · 累计 {amount(member.total_turnover)}
                <br />
                加入于 <DateTimeText ms={member.joined_at} />
              </>
            }
          >
            {member.nickname} <Tag color="var(--app-primary-fill)">{member.level}级</Tag>
          </List.Item>
        )}
      />
    </>
  )
}

export function PerformanceRecordPage() {
  const [view, setView] = useState<'turnover' | 'team'>('turnover')
  return (
    <PageShell title="业绩记录" right={<HideAmountToggle />} fallback={paths.mine}>
      <RequireLogin>
        <div className="agent">
          <SegmentedControl
            label="查看内容"
            value={view}
            onChange={setView}
            options={[
              { label: '流水记录', value: 'turnover' },
              { label: '下级查询', value: 'team' },
            ]}
          />
          {view === 'turnover' ? <TurnoverView /> : <TeamView />}
        </div>
      </RequireLogin>
    </PageShell>
  )
}
