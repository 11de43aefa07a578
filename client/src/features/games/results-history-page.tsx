import { DateTimeText } from '@client/components/date-time-text/date-time-text'
import { PageShell } from '@client/components/page-shell/page-shell'
import { PagedListView } from '@client/components/paged-list/paged-list'
import { callApi } from '@client/lib/http'
import { usePagedList } from '@client/lib/use-paged-list'
import { gameResults } from '@shared/contract/games'
import type { GameCode } from '@shared/games/config'
import List from 'antd-mobile/es/components/list'
import { Link, useParams } from 'react-router-dom'
import { AwardText } from './award-text'
import { DrawNumbers } from './draw-numbers'
import { GAME_NAMES, gameFromSegment, gamePath, verifyPath } from './game-links'
import { UnknownGame } from './unknown-game'
import './games.css'

/** Every draw of one game, newest first, with the block hash and a link to verify it. */
export function ResultsHistoryPage() {
  const game = gameFromSegment(useParams().game)
  if (!game) return <UnknownGame />
  return <ResultsHistory key={game} game={game} />
}

function ResultsHistory({ game }: { game: GameCode }) {
  const list = usePagedList(
    { game },
    (page) => callApi(gameResults, { query: { game, ...page } }),
    (d) => d.round_id,
  )
  return (
    <PageShell title={`${GAME_NAMES[game]} · 开奖记录`} fallback={gamePath(game)}>
      <PagedListView
        list={list}
        variant="rows"
        label="开奖记录"
        testId="results-history"
        timeZoneNote
        empty="暂无开奖记录"
        renderItem={(d) => (
          <List.Item
            description={
              <>
                <AwardText hash={d.block_hash} />
                <div>
                  区块 {d.height} · <DateTimeText ms={d.draw_at} />
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
        )}
      />
    </PageShell>
  )
}
