import { BalanceText } from '@client/components/balance-text/balance-text'
import { PageShell } from '@client/components/page-shell/page-shell'
import { ResponsibleLink } from '@client/components/responsible-link/responsible-link'
import { loginPath, paths } from '@client/config/paths'
import { copyText } from '@client/lib/copy'
import { formatDateTime } from '@client/lib/date-time'
import { truncate } from '@client/lib/format'
import { useShownAmount } from '@client/lib/hide-amount'
import { callApi, newIdempotencyKey } from '@client/lib/http'
import { refreshBalance } from '@client/lib/session-actions'
import { session, useSession } from '@client/lib/session-store'
import { showToast } from '@client/lib/toast'
import { useApi } from '@client/lib/use-api'
import { useBusy } from '@client/lib/use-busy'
import type { DataOf } from '@shared/contract/endpoint'
import { BET_STATUS_LABEL, betHistory, gameResults, gameRules, placeBets } from '@shared/contract/games'
import type { GameCode } from '@shared/games/config'
import Button from 'antd-mobile/es/components/button'
import Input from 'antd-mobile/es/components/input'
import List from 'antd-mobile/es/components/list'
import Popup from 'antd-mobile/es/components/popup'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { type Dispatch, useMemo, useReducer, useRef, useState } from 'react'
import { Link, useLocation, useNavigate } from 'react-router-dom'
import { AwardText } from './award-text'
import {
  blockedBy,
  CHIPS,
  checkSlip,
  emptySlip,
  potentialPayout,
  QUICK_AMOUNTS,
  type SlipAction,
  type SlipState,
  slipReducer,
  stakeText,
  totalText,
} from './bet-slip'
import { formatCountdown } from './countdown'
import { DrawNumbers } from './draw-numbers'
import { GAME_NAMES, gameFromPath, resultsHistoryPath, rulesPath, verifyPath } from './game-links'
import { beep } from './sound'
import { UnknownGame } from './unknown-game'
import { type CommitmentView, useCommitment } from './use-commitment'
import { type Round, type RoundView, useRound } from './use-round'
import './games.css'

type BetItem = DataOf<typeof placeBets>['bets'][number]
type Rules = DataOf<typeof gameRules>
type Draw = DataOf<typeof gameResults>['list'][number]

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

function RoundPanel({ view }: { view: RoundView }) {
  const { round, msToSeal, msToDraw, sealed } = view
  if (!round) return <Skeleton.Paragraph lineCount={3} animated />
  const previous = round.previous
  return (
    <section className="games-round" data-testid="round" data-round-id={round.round_id}>
      <div className="games-round__head">
        <span>
          第 <b data-testid="round-id">{round.round_id}</b> 期
        </span>
        <span
          className={sealed ? 'games-state games-state--sealed' : 'games-state'}
          data-testid="round-state"
        >
          {sealed ? '已封盘' : '投注中'}
        </span>
      </div>
      <div className="games-round__clocks">
        <div>
          <div className="games-round__label">距封盘</div>
          <div className="games-round__time" data-testid="to-seal">
            {formatCountdown(msToSeal)}
          </div>
        </div>
        <div>
          <div className="games-round__label">距开奖</div>
          <div className="games-round__time" data-testid="to-draw">
            {formatCountdown(msToDraw)}
          </div>
        </div>
      </div>
      {previous ? (
        <div className="games-round__previous" data-testid="previous-draw" data-round-id={previous.round_id}>
          <div>
            上期 第 {previous.round_id} 期 <DrawNumbers draw={previous} />
          </div>
          <AwardText hash={previous.block_hash} />
        </div>
      ) : (
        <div className="games-round__previous">暂无开奖</div>
      )}
    </section>
  )
}

/** The latest draws side by side, newest first; it follows each draw without a reload. */
function ResultsStrip({ game, draws }: { game: GameCode; draws: Draw[] | null }) {
  if (draws === null) return null
  return (
    <section className="games-strip" aria-label="近期开奖" data-testid="results-strip">
      {draws.length === 0 ? <span className="games-strip__empty">暂无开奖</span> : null}
      {draws.map((d) => (
        <Link
          key={d.round_id}
          className="games-strip__item"
          to={verifyPath(game, d.round_id)}
          data-testid="strip-draw"
          data-round-id={d.round_id}
        >
          <span className="games-strip__round">{d.round_id.slice(-4)} 期</span>
          <DrawNumbers draw={d} />
        </Link>
      ))}
    </section>
  )
}

/**
 * The chain's commitment as this device first saw it: the terminal hash (shortened, copyable) and
 * when the server published it. A server that now publishes another one is flagged in red.
 */
function CommitmentPanel({ view }: { view: CommitmentView }) {
  const { current, held, changed } = view
  if (!current) return null
  const shown = held ?? current
  return (
    <section className="games-commitment" data-testid="commitment" data-hash={shown.terminal_hash}>
      <div className="games-commitment__row">
        <span className="games-commitment__label">开局承诺</span>
        <code data-testid="commitment-hash" title={shown.terminal_hash}>
          {truncate(shown.terminal_hash, 10, 8)}
        </code>
        <button
          type="button"
          className="games-tap games-copy"
          aria-label="复制承诺哈希"
          onClick={() => void copyText(shown.terminal_hash)}
        >
          复制
        </button>
      </div>
      <div className="games-commitment__meta">
        公布于{' '}
        <time data-testid="commitment-published" dateTime={new Date(shown.created_at).toISOString()}>
          {formatDateTime(shown.created_at)}
        </time>
        {held ? ` · 本机 ${formatDateTime(held.seen_at)} 记下，验证以此为准` : ''}
      </div>
      {changed ? (
        <div className="games-warning" role="alert" data-testid="commitment-changed">
          <strong>警告：服务器的承诺已改变！</strong>
          <p>服务器现在公布的终点哈希与本机先前记下的不同，之后的开奖无法用你持有的承诺证明。</p>
          <code>{current.terminal_hash}</code>
        </div>
      ) : null}
    </section>
  )
}

interface BetBoardProps {
  rules: Rules
  slip: SlipState
  dispatch: Dispatch<SlipAction>
  /** Bet types already placed on the round a new bet goes to. */
  placed: readonly string[]
}

/** The bet types with their odds (from the rules endpoint), the chips and the stake. */
function BetBoard({ rules, slip, dispatch, placed }: BetBoardProps) {
  const balance = useSession((s) => s.balance)
  const groups = useMemo(() => {
    const out = new Map<string, Rules['bet_types']>()
    for (const t of rules.bet_types) out.set(t.group, [...(out.get(t.group) ?? []), t])
    return [...out.entries()]
  }, [rules])
  const labelOf = useMemo(() => new Map(rules.bet_types.map((t) => [t.bet_type, t.label])), [rules])
  const taken = [...slip.selected, ...placed]

  return (
    <section className="games-slip">
      {groups.map(([group, types]) => (
        <div key={group} className="games-slip__group">
          <div className="games-slip__group-title">{group}</div>
          <div className="games-slip__types">
            {types.map((t) => {
              const on = slip.selected.includes(t.bet_type)
              const blocker = on ? null : blockedBy(t.bet_type, taken)
              return (
                <button
                  type="button"
                  key={t.bet_type}
                  className={on ? 'games-type games-type--on' : 'games-type'}
                  aria-pressed={on}
                  data-bet-type={t.bet_type}
                  disabled={blocker !== null}
                  title={
                    blocker ? `已选 ${labelOf.get(blocker) ?? blocker}，同一期不能再投对立项` : undefined
                  }
                  onClick={() => dispatch({ type: 'toggle', betType: t.bet_type })}
                >
                  <span>{t.label}</span>
                  <small>{t.odds}</small>
                </button>
              )
            })}
          </div>
        </div>
      ))}
      <div className="games-slip__chips">
        {CHIPS.map((c) => (
          <button
            type="button"
            key={c}
            className="games-chip"
            aria-label={`加 ${c}`}
            onClick={() => dispatch({ type: 'chip', amount: c })}
          >
            {c}
          </button>
        ))}
      </div>
      <div className="games-slip__amount">
        <Input
          aria-label="每注金额"
          placeholder={`每注 ${rules.min_stake} – ${rules.max_stake}`}
          inputMode="decimal"
          value={slip.stakeMicro > 0 ? stakeText(slip) : ''}
          onChange={(v) => dispatch({ type: 'set', amount: v })}
        />
        {QUICK_AMOUNTS.map((a) => (
          <button
            type="button"
            key={a}
            className="games-quick"
            onClick={() => dispatch({ type: 'set', amount: a })}
          >
            {a}
          </button>
        ))}
      </div>
      <div className="games-slip__tools">
        <button type="button" aria-label="减半" onClick={() => dispatch({ type: 'half' })}>
          ½
        </button>
        <button type="button" aria-label="加倍 ×2" onClick={() => dispatch({ type: 'double' })}>
          ×2
        </button>
        <button type="button" onClick={() => dispatch({ type: 'max', balance, maxStake: rules.max_stake })}>
          最大
        </button>
        <button type="button" onClick={() => dispatch({ type: 'clear' })}>
          清空
        </button>
        <span className="games-slip__balance">
          余额 <BalanceText balance={balance} />
        </span>
      </div>
    </section>
  )
}

interface BetBarProps {
  game: GameCode
  rules: Rules
  view: RoundView
  slip: SlipState
  dispatch: Dispatch<SlipAction>
  onPlaced: (update: (bets: BetItem[]) => BetItem[]) => void
}

/**
 * The bar that stays at the bottom of the screen: the round's two countdowns, what is picked and
 * its total, and the bet button. The confirmation sheet names the round the bets go to; when that
 * round closes before the player confirms, nothing is sent and the sheet asks again for the next.
 */
function BetBar({ game, rules, view, slip, dispatch, onPlaced }: BetBarProps) {
  const navigate = useNavigate()
  const [pinned, setPinned] = useState<string | null>(null)
  const [sending, run] = useBusy()
  const isLogin = useSession((s) => s.isLogin)
  const balance = useSession((s) => s.balance)
  const money = useShownAmount()
  // One key per confirmed slip: a retry of the same confirmation cannot place it twice.
  const idempotencyKey = useRef(newIdempotencyKey())
  const byType = useMemo(() => new Map(rules.bet_types.map((t) => [t.bet_type, t])), [rules])
  const check = checkSlip(slip, { minStake: rules.min_stake, maxStake: rules.max_stake, balance })
  const { round, target, msToSeal, msToDraw, sealed } = view
  const moved = pinned !== null && target !== null && target.round.round_id !== pinned

  const open = () => {
    if (!isLogin) {
      navigate(loginPath())
      return
    }
    if (!check.ok) return showToast(check.message ?? '请检查投注')
    if (!target) return showToast('正在等待下一期开盘')
    idempotencyKey.current = newIdempotencyKey()
    setPinned(target.round.round_id)
  }

  const confirm = async () => {
    if (!pinned || !target || sending) return
    if (target.round.round_id !== pinned) {
      // The round changed under the sheet: nothing is sent until the player agrees to the new one.
      idempotencyKey.current = newIdempotencyKey()
      setPinned(target.round.round_id)
      return
    }
    // On a failure the HTTP client shows why and the sheet stays open to retry.
    await run(async () => {
      const res = await callApi(
        placeBets,
        {
          body: {
            game,
            round_id: pinned,
            bets: slip.selected.map((bet_type) => ({ bet_type, amount: stakeText(slip) })),
          },
        },
        { idempotencyKey: idempotencyKey.current },
      )
      session.setBalance(res.balance)
      onPlaced((bets) => [...res.bets, ...bets.filter((b) => !res.bets.some((n) => n.id === b.id))])
      setPinned(null)
      dispatch({ type: 'clear' })
      showToast('投注成功')
    })
  }

  return (
    <>
      <div className="games-bar" data-testid="bet-bar">
        <div className="games-bar__clocks">
          <span>
            第 {round?.round_id ?? '—'} 期{sealed ? ' 已封盘' : ''}
          </span>
          <span>
            封盘 <b data-testid="bar-to-seal">{formatCountdown(msToSeal)}</b>
          </span>
          <span>
            开奖 <b data-testid="bar-to-draw">{formatCountdown(msToDraw)}</b>
          </span>
        </div>
        <div className="games-bar__row">
          <div className="games-bar__sum" data-testid="bar-summary">
            已选 <b data-testid="bar-count">{slip.selected.length}</b> 注 · 共{' '}
            <b data-testid="bar-total">{money(totalText(slip))}</b>
            <div className="games-bar__target">
              {target ? `投注进入第 ${target.round.round_id} 期` : '等待下一期开盘'}
            </div>
          </div>
          <Button color="primary" className="games-bar__button" disabled={!round} onClick={open}>
            投注
          </Button>
        </div>
      </div>
      <Popup visible={pinned !== null} onMaskClick={() => setPinned(null)} bodyClassName="games-confirm">
        <h3 data-testid="confirm-round">确认投注 · 第 {pinned} 期</h3>
        {target && !moved ? (
          <div className="games-confirm__note">
            本期 {formatCountdown(target.msToSeal)} 后封盘，封盘后不再接受投注
          </div>
        ) : null}
        {moved && target ? (
          <div className="games-warning" role="alert" data-testid="round-moved">
            <strong>第 {pinned} 期已封盘</strong>
            <p>投注没有发送。如要投注下一期（第 {target.round.round_id} 期），请再次确认。</p>
          </div>
        ) : null}
        {!target ? <div className="games-confirm__note">正在等待下一期开盘…</div> : null}
        <List>
          {slip.selected.map((t) => {
            const type = byType.get(t)
            const odds = type?.odds ?? '0'
            return (
              <List.Item
                key={t}
                extra={
                  <span className="games-confirm__odds">
                    赔率 {odds}
                    <br />
                    可赢 {money(potentialPayout(stakeText(slip), odds))}
                  </span>
                }
                description={`每注 ${money(stakeText(slip))}`}
              >
                {type?.label ?? t}
              </List.Item>
            )
          })}
        </List>
        <div className="games-confirm__total">合计 {money(totalText(slip))} USDT</div>
        <div className="games-confirm__actions">
          <Button onClick={() => setPinned(null)}>取消</Button>
          <Button color="primary" loading={sending} disabled={!target} onClick={confirm}>
            {moved && target ? `改投第 ${target.round.round_id} 期` : '确认投注'}
          </Button>
        </div>
      </Popup>
    </>
  )
}

function MyBets({ bets }: { bets: BetItem[] }) {
  const money = useShownAmount()
  return (
    <List header="本次投注" data-testid="my-bets">
      {bets.map((b) => (
        <List.Item
          key={b.id}
          description={`第 ${b.round_id} 期 · 赔率 ${b.odds}`}
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
