import { HideAmountToggle } from '@client/components/balance-text/balance-text'
import { DateTimeText } from '@client/components/date-time-text/date-time-text'
import { NumText } from '@client/components/num-text/num-text'
import { availabilityOf, PageShell, ReadState } from '@client/components/page-shell/page-shell'
import { TimeZoneNote } from '@client/components/time-zone-note/time-zone-note'
import { formatDateTime } from '@client/lib/date-time'
import { useShownAmount } from '@client/lib/hide-amount'
import { useApi } from '@client/lib/use-api'
import { prizePool } from '@shared/contract/content'
import Empty from 'antd-mobile/es/components/empty'
import List from 'antd-mobile/es/components/list'
import './content.css'

/** Winners name the game by its code; shown by its Chinese name (an unknown code as it is). */
const GAME_NAMES: Record<string, string> = {
  qukuai: '区块游戏',
  hassize: '哈希大小',
  kuaisan: '快三',
  shishicai: '时时彩',
  saiche: '赛车',
}

/** How often the pool amount is re-read while the page is open. */
const POOL_REFRESH_MS = 5000

export function PondPage() {
  const amount = useShownAmount()
  const { data, error, mutate } = useApi(prizePool, undefined, {
    // Only while the server answers: an upstream without the pool is not asked again and again.
    refreshInterval: (latest) => (latest ? POOL_REFRESH_MS : 0),
  })
  const availability = availabilityOf(data, error)
  if (availability === 'missing' || availability === 'refused' || availability === 'unreachable') {
    return (
      <PageShell title="奖池">
        <ReadState availability={availability} onRetry={() => void mutate()} note="当前服务暂不支持奖池。">
          {null}
        </ReadState>
      </PageShell>
    )
  }
  return (
    <PageShell title="奖池" right={<HideAmountToggle />}>
      <div className="content">
        <section className="content__hero" aria-label="当前奖池">
          <p>当前奖池（USDT）</p>
          <p className="content__big" data-testid="pool-amount">
            {data ? amount(data.amount) : '—'}
          </p>
          <p className="content__meta content__meta--light">
            {data ? (
              <NumText
                text={`每笔投注的 ${data.rate} 注入奖池 · 更新于 ${formatDateTime(data.updated_at)}`}
              />
            ) : (
              '加载中'
            )}
          </p>
        </section>
        <List className="content__list" header="最近中奖">
          {data?.winners.map((winner) => (
            <List.Item
              key={`${winner.won_at}-${winner.name}-${winner.amount}`}
              description={
                <>
                  {GAME_NAMES[winner.game] ?? winner.game} · <DateTimeText ms={winner.won_at} />
                </>
              }
              extra={amount(winner.amount)}
            >
              {winner.name}
            </List.Item>
          ))}
        </List>
        {data && data.winners.length === 0 ? (
          <Empty className="content__empty" description="暂无中奖记录" />
        ) : null}
        <TimeZoneNote />
      </div>
    </PageShell>
  )
}
