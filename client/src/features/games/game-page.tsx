import { availabilityOf, PageShell, ReadState } from '@client/components/page-shell/page-shell'
import { ResponsibleLink } from '@client/components/responsible-link/responsible-link'
import { paths } from '@client/config/paths'
import { useShownAmount } from '@client/lib/hide-amount'
import { liveStream, useLiveEvent } from '@client/lib/live'
import { refreshBalance } from '@client/lib/session-actions'
import { session, useSession } from '@client/lib/session-store'
import { useApi } from '@client/lib/use-api'
import { BET_STATUS_LABEL, gameResults, gameRules } from '@shared/contract/games'
import type { GameCode } from '@shared/games/config'
import List from 'antd-mobile/es/components/list'
import PullToRefresh from 'antd-mobile/es/components/pull-to-refresh'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { type ReactNode, useEffect, useMemo, useReducer, useState } from 'react'
import { Link, useLocation } from 'react-router-dom'
import { AwardText } from './award-text'
import { BetBar, type BetItem } from './bet-bar'
import { BetBoard } from './bet-board'
import { emptySlip, slipReducer } from './bet-slip'
import { DrawNumbers } from './draw-numbers'
import { GAME_NAMES, gameFromPath, resultsHistoryPath, rulesPath, verifyPath } from './game-links'
import { withDraw } from './live-draws'
import { CommitmentPanel, ResultsStrip, RoundPanel } from './round-panel'
import { type Bet, settlementWatch } from './settlement-watch'
import { playSound } from './sound'
import { StreakBoard } from './streak-board'
import { UnknownGame } from './unknown-game'
import { useCommitment } from './use-commitment'
import { type Round, type RoundView, useRound } from './use-round'
import './games.css'

/** Draws read for the streak board; the strip and the list show the latest of them. */
const STREAK_DRAWS = 50
const SHOWN_DRAWS = 10

/** A sealed window at least this long masks the board until dismissed; a shorter one only shows over it. */
const BLOCKING_SEAL_MS = 2_000

/** One page for every game: the routes differ only in the game code of their path. */
export function GamePage() {
  const game = gameFromPath(useLocation().pathname)
  if (!game) return <UnknownGame />
  return <GameView key={game} game={game} />
}

function GameView({ game }: { game: GameCode }) {
  const rules = useApi(gameRules, { game })
  const results = useApi(gameResults, { game, page: 1, page_size: STREAK_DRAWS }, { refreshInterval: 0 })
  const commitment = useCommitment()
  const [myBets, setMyBets] = useState<MyBet[]>([])
  const [slip, dispatch] = useReducer(slipReducer, emptySlip)
  const soundOn = useSession((s) => s.soundOn)

  // Settlements come from the app's one watch over the player's pending bets (settlement-watch.ts),
  // which also refreshes the balance and announces wins, whatever page placed the bet.
  useEffect(
    () =>
      settlementWatch.subscribe((settled) =>
        setMyBets((bets) => bets.map((b) => settled.find((s) => s.id === b.id) ?? b)),
      ),
    [],
  )

  // The push channel's draw (docs/realtime.md): shown at its draw time, without asking the server.
  useLiveEvent(
    'draw',
    (draw) => {
      if (draw.game !== game) return
      void results.mutate((current) => withDraw(current, draw, STREAK_DRAWS), { revalidate: false })
      if (soundOn) playSound('draw')
      // A round the player has bets in: ask now, as a polled draw does (the settlement event asks too).
      // Without the player's events (proxy mode) the watch asks at every draw itself.
      if (session.get().isLogin && liveStream.playerEvents && settlementWatch.hasPending(game, draw.round_id))
        void settlementWatch.sync()
    },
    [game, soundOn, results.mutate],
  )

  // A snapshot: draws the stream did not bring (before it opened, or too many missed) are read.
  useLiveEvent('snapshot', () => void results.mutate(), [results.mutate])

  const onDraw = (round: Round) => {
    // The results strip and list follow every draw by themselves.
    void results.mutate()
    if (soundOn) playSound('draw')
    const drawnId = round.previous?.round_id
    // A round the player has bets in: ask now rather than wait for the watch's own timer.
    if (drawnId && session.get().isLogin && settlementWatch.hasPending(game, drawnId))
      void settlementWatch.sync()
  }
  const view = useRound(game, onDraw)

  // Bets already placed on the round a new bet goes to rule out their other side too.
  const targetId = view.target?.round.round_id
  const placed = useMemo(
    () => myBets.filter((b) => b.round_id === targetId && b.status === 'pending').map((b) => b.bet_type),
    [myBets, targetId],
  )

  const onRefresh = async () => {
    await Promise.allSettled([
      view.refresh(),
      results.mutate(),
      rules.mutate(),
      session.get().isLogin ? refreshBalance() : Promise.resolve(),
      session.get().isLogin ? settlementWatch.sync() : Promise.resolve(),
    ])
  }

  const draws = results.data?.list ?? null
  const resultsMissing = availabilityOf(results.data, results.error) === 'missing'
  const rulesState = availabilityOf(rules.data, rules.error)
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
      <PullToRefresh onRefresh={onRefresh}>
        <RoundPanel view={view} />
        <ResultsStrip game={game} draws={draws?.slice(0, SHOWN_DRAWS) ?? null} />
        <StreakBoard draws={draws} />
        <CommitmentPanel view={commitment} />
        <ReadState
          availability={rulesState}
          onRetry={() => void rules.mutate()}
          note="当前服务暂不支持此游戏的玩法与赔率，暂时无法投注。"
          loading={<Skeleton.Paragraph lineCount={5} animated />}
        >
          {rules.data ? (
            <SealedMask view={view} blocking={rules.data.seal_ms >= BLOCKING_SEAL_MS}>
              <BetBoard rules={rules.data} slip={slip} dispatch={dispatch} placed={placed} />
            </SealedMask>
          ) : null}
        </ReadState>
        {myBets.length > 0 ? <MyBets bets={myBets} /> : null}
        {resultsMissing ? null : (
          <List header="最近开奖" className="games-results" data-testid="latest-results">
            {(draws ?? []).slice(0, SHOWN_DRAWS).map((d) => (
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
        )}
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
      </PullToRefresh>
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

/**
 * While the current round is sealed a mask lies over the bet board saying so, and that picks now
 * go to the next round. Where sealing lasts long enough to matter it stops taps until the player
 * chooses to go on picking for the next round (once per sealed round); the block game's one-second
 * sealing only shows it.
 */
function SealedMask({
  view,
  blocking,
  children,
}: {
  view: RoundView
  blocking: boolean
  children: ReactNode
}) {
  const [dismissed, setDismissed] = useState<string | null>(null)
  const sealedId = view.sealed ? (view.round?.round_id ?? null) : null
  const show = sealedId !== null && dismissed !== sealedId
  const nextId = view.target?.round.round_id ?? view.round?.next.round_id
  return (
    <div className="games-board" data-sealed={show || undefined}>
      {children}
      {show ? (
        <div
          className="games-sealed-mask"
          role="status"
          data-testid="sealed-mask"
          style={blocking ? undefined : { pointerEvents: 'none' }}
        >
          <strong>第 {sealedId} 期已封盘</strong>
          <p>本期不再接受投注，现在选择的投注将进入第 {nextId} 期</p>
          {blocking ? (
            <button type="button" onClick={() => setDismissed(sealedId)}>
              继续选择第 {nextId} 期
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  )
}

/** A bet placed on this page; once settled it carries what its round drew. */
type MyBet = BetItem & { result?: Bet['result'] }

/** The bets placed on this page since it opened, each updated (with the draw) when its round is drawn. */
function MyBets({ bets }: { bets: MyBet[] }) {
  const money = useShownAmount()
  return (
    <List header="本次投注" data-testid="my-bets">
      {bets.map((b) => (
        <List.Item
          key={b.id}
          description={
            <>
              第 {b.round_id} 期 · 赔率 <span data-public-figure>{b.odds}</span>
              {b.result ? (
                <div className="games-bet-result" data-testid="my-bet-result">
                  开奖 <DrawNumbers draw={b.result} />
                </div>
              ) : null}
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
