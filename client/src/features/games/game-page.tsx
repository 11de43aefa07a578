import { PageShell } from '@client/components/page-shell/page-shell'
import { ResponsibleLink } from '@client/components/responsible-link/responsible-link'
import { paths } from '@client/config/paths'
import { useShownAmount } from '@client/lib/hide-amount'
import { callApi } from '@client/lib/http'
import { refreshBalance } from '@client/lib/session-actions'
import { session, useSession } from '@client/lib/session-store'
import { showToast } from '@client/lib/toast'
import { useApi } from '@client/lib/use-api'
import { BET_STATUS_LABEL, betHistory, gameResults, gameRules } from '@shared/contract/games'
import type { GameCode } from '@shared/games/config'
import List from 'antd-mobile/es/components/list'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { useMemo, useReducer, useState } from 'react'
import { Link, useLocation } from 'react-router-dom'
import { AwardText } from './award-text'
import { BetBar, type BetItem } from './bet-bar'
import { BetBoard } from './bet-board'
import { emptySlip, slipReducer } from './bet-slip'
import { DrawNumbers } from './draw-numbers'
import { GAME_NAMES, gameFromPath, resultsHistoryPath, rulesPath, verifyPath } from './game-links'
import { CommitmentPanel, ResultsStrip, RoundPanel } from './round-panel'
import { beep } from './sound'
import { UnknownGame } from './unknown-game'
import { useCommitment } from './use-commitment'
import { type Round, useRound } from './use-round'
import './games.css'

/** One page for every game: the routes differ only in the game code of their path. */
export function GamePage() {
  const game = gameFromPath(useLocation().pathname)
  if (!game) return <UnknownGame />
  return <GameView key={game} game={game} />
}

function GameView({ game }: { game: GameCode }) {
  const rules = useApi(gameRules, { game })
  const results = useApi(gameResults, { game, page: 1, page_size: 10 }, { refreshInterval: 0 })
  const commitment = useCommitment()
  const [myBets, setMyBets] = useState<BetItem[]>([])
  const [slip, dispatch] = useReducer(slipReducer, emptySlip)
  const soundOn = useSession((s) => s.soundOn)

  const onDraw = async (round: Round) => {
    // The results strip and list follow every draw by themselves.
    void results.mutate()
    if (soundOn) beep('draw')
    const drawnId = round.previous?.round_id
    if (!drawnId || !myBets.some((b) => b.round_id === drawnId) || !session.get().isLogin) return
    try {
      const mine = await callApi(betHistory, { query: { game, page: 1, page_size: 50 } })
      const settled = mine.list.filter((b) => b.round_id === drawnId)
      setMyBets((bets) => bets.map((b) => settled.find((s) => s.id === b.id) ?? b))
      if (settled.some((b) => b.status === 'won')) {
        if (soundOn) beep('win')
        showToast('恭喜中奖！')
      }
      await refreshBalance()
    } catch {
      // The HTTP client showed why.
    }
  }
  const view = useRound(game, (r) => void onDraw(r))

  // Bets already placed on the round a new bet goes to rule out their other side too.
  const targetId = view.target?.round.round_id
  const placed = useMemo(
    () => myBets.filter((b) => b.round_id === targetId && b.status === 'pending').map((b) => b.bet_type),
    [myBets, targetId],
  )

  const title = rules.data?.name ?? GAME_NAMES[game]
  return (
    <PageShell
      title={title}
      fallback={paths.home}
      right={
        <span className="games-nav-links">
          <Link to={resultsHistoryPath(game)}>开奖记录</Link>
          <Link to={rulesPath(game)}>规则</Link>
        </span>
      }
    >
      <RoundPanel view={view} />
      <ResultsStrip game={game} draws={results.data?.list ?? null} />
      <CommitmentPanel view={commitment} />
      {rules.data ? (
        <BetBoard rules={rules.data} slip={slip} dispatch={dispatch} placed={placed} />
      ) : (
        <Skeleton.Paragraph lineCount={5} animated />
      )}
      {myBets.length > 0 ? <MyBets bets={myBets} /> : null}
      <List header="最近开奖" className="games-results" data-testid="latest-results">
        {(results.data?.list ?? []).map((d) => (
          <List.Item
            key={d.round_id}
            description={<AwardText hash={d.block_hash} />}
            extra={
              <Link className="games-tap" to={verifyPath(game, d.round_id)}>
                验证
              </Link>
            }
          >
            <span className="games-round-id">第 {d.round_id} 期</span> <DrawNumbers draw={d} />
          </List.Item>
        ))}
      </List>
      <div className="games-links">
        <Link className="games-tap" to={resultsHistoryPath(game)}>
          全部开奖记录
        </Link>
        <Link className="games-tap" to={rulesPath(game)}>
          玩法规则
        </Link>
        <Link className="games-tap" to={paths.betHistory}>
          我的投注
        </Link>
      </div>
      <ResponsibleLink />
      {rules.data ? (
        <BetBar
          game={game}
          rules={rules.data}
          view={view}
          slip={slip}
          dispatch={dispatch}
          onPlaced={setMyBets}
        />
      ) : null}
    </PageShell>
  )
}

/** The bets placed on this page since it opened, each updated when its round is drawn. */
function MyBets({ bets }: { bets: BetItem[] }) {
  const money = useShownAmount()
  return (
    <List header="本次投注" data-testid="my-bets">
      {bets.map((b) => (
        <List.Item
          key={b.id}
          description={
            <>
              第 {b.round_id} 期 · 赔率 <span data-public-figure>{b.odds}</span>
            </>
          }
          extra={
            <span data-testid="my-bet-status" data-status={b.status}>
              {BET_STATUS_LABEL[b.status]}
              {b.status === 'won' || b.status === 'draw' ? ` +${money(b.payout)}` : ''}
            </span>
          }
        >
          {b.label} · {money(b.stake)}
        </List.Item>
      ))}
    </List>
  )
}
