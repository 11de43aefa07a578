import InfiniteScroll from 'antd-mobile/es/components/infinite-scroll'
import List from 'antd-mobile/es/components/list'
import PullToRefresh from 'antd-mobile/es/components/pull-to-refresh'
import { useCallback, useState } from 'react'
import { Link, useParams } from 'react-router-dom'
import type { DataOf } from '../../../../shared/contract/endpoint'
import { gameResults } from '../../../../shared/contract/games'
import type { GameCode } from '../../../../shared/games/config'
import { PageShell } from '../../components/page-shell/page-shell'
import { formatDateTime } from '../../lib/date-time'
import { callApi } from '../../lib/http'
import { AwardText } from './award-text'
import { DrawNumbers } from './draw-numbers'
import { GAME_NAMES, gameFromSegment, gamePath, verifyPath } from './game-links'
import { UnknownGame } from './unknown-game'
import './games.css'

type Draw = DataOf<typeof gameResults>['list'][number]

const PAGE_SIZE = 20

/** Every draw of one game, newest first, with the block hash and a link to verify it. */
export function ResultsHistoryPage() {
  const game = gameFromSegment(useParams().game)
  if (!game) return <UnknownGame />
  return <ResultsHistory key={game} game={game} />
}

function ResultsHistory({ game }: { game: GameCode }) {
  const [rows, setRows] = useState<Draw[]>([])
  const [page, setPage] = useState(1)
  const [hasMore, setHasMore] = useState(true)

  const loadMore = useCallback(async () => {
    const res = await callApi(gameResults, { query: { game, page, page_size: PAGE_SIZE } })
    setRows((r) => [...r, ...res.list.filter((d) => !r.some((x) => x.round_id === d.round_id))])
    setPage(page + 1)
    setHasMore(res.has_more)
  }, [game, page])

  const reload = async () => {
    const res = await callApi(gameResults, { query: { game, page: 1, page_size: PAGE_SIZE } })
    setRows(res.list)
    setPage(2)
    setHasMore(res.has_more)
  }

  return (
    <PageShell title={`${GAME_NAMES[game]} · 开奖记录`} fallback={gamePath(game)}>
      <PullToRefresh onRefresh={reload}>
        <List data-testid="results-history">
          {rows.map((d) => (
            <List.Item
              key={d.round_id}
              description={
                <>
                  <AwardText hash={d.block_hash} />
                  <div>
                    区块 {d.height} · {formatDateTime(d.draw_at)}
                  </div>
                </>
              }
              extra={
                <Link className="games-tap" to={verifyPath(game, d.round_id)}>
                  验证
                </Link>
              }
            >
              第 {d.round_id} 期 <DrawNumbers draw={d} />
            </List.Item>
          ))}
        </List>
        <InfiniteScroll loadMore={loadMore} hasMore={hasMore} />
      </PullToRefresh>
    </PageShell>
  )
}
