import Button from 'antd-mobile/es/components/button'
import Input from 'antd-mobile/es/components/input'
import List from 'antd-mobile/es/components/list'
import Popup from 'antd-mobile/es/components/popup'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { useMemo, useReducer, useRef, useState } from 'react'
import { Link, useLocation, useNavigate } from 'react-router-dom'
import type { DataOf } from '../../../../shared/contract/endpoint'
import {
  BET_STATUS_LABEL,
  betHistory,
  gameResults,
  gameRules,
  placeBets,
} from '../../../../shared/contract/games'
import type { GameCode } from '../../../../shared/games/config'
import { BalanceText } from '../../components/balance-text/balance-text'
import { PageShell } from '../../components/page-shell/page-shell'
import { ResponsibleLink } from '../../components/responsible-link/responsible-link'
import { loginPath, paths } from '../../config/paths'
import { callApi, newIdempotencyKey } from '../../lib/http'
import { refreshBalance } from '../../lib/session-actions'
import { session, useSession } from '../../lib/session-store'
import { showToast } from '../../lib/toast'
import { useApi } from '../../lib/use-api'
import { AwardText } from './award-text'
import {
  amountText,
  CHIPS,
  checkSlip,
  emptySlip,
  potentialPayout,
  QUICK_AMOUNTS,
  slipReducer,
  stakeText,
  totalText,
} from './bet-slip'
import { formatCountdown } from './countdown'
import { DrawNumbers } from './draw-numbers'
import { GAME_NAMES, gameFromPath, resultsHistoryPath, rulesPath, verifyPath } from './game-links'
import { beep } from './sound'
import { UnknownGame } from './unknown-game'
import { type Round, useRound } from './use-round'
import './games.css'

type BetItem = DataOf<typeof placeBets>['bets'][number]
type Rules = DataOf<typeof gameRules>

/** One page for every game: the routes differ only in the game code of their path. */
export function GamePage() {
  const game = gameFromPath(useLocation().pathname)
  if (!game) return <UnknownGame />
  return <GameView key={game} game={game} />
}

function GameView({ game }: { game: GameCode }) {
  const rules = useApi(gameRules, { game })
  const results = useApi(gameResults, { game, page: 1, page_size: 10 }, { refreshInterval: 0 })
  const [myBets, setMyBets] = useState<BetItem[]>([])
  const soundOn = useSession((s) => s.soundOn)

  const onDraw = async (round: Round) => {
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
      {rules.data ? (
        <BetSlip
          game={game}
          rules={rules.data}
          round={view.round}
          sealed={view.sealed}
          onPlaced={setMyBets}
        />
      ) : (
        <Skeleton.Paragraph lineCount={5} animated />
      )}
      {myBets.length > 0 ? <MyBets bets={myBets} /> : null}
      <List header="最近开奖" className="games-results" data-testid="latest-results">
        {(results.data?.list ?? []).map((d) => (
          <List.Item
            key={d.round_id}
            description={<AwardText hash={d.block_hash} />}
            extra={<Link to={verifyPath(game, d.round_id)}>验证</Link>}
          >
            <span className="games-round-id">第 {d.round_id} 期</span> <DrawNumbers draw={d} />
          </List.Item>
        ))}
      </List>
      <div className="games-links">
        <Link to={resultsHistoryPath(game)}>查看全部开奖记录</Link>
        <Link to={rulesPath(game)}>玩法规则</Link>
        <Link to={paths.betHistory}>我的投注</Link>
      </div>
      <ResponsibleLink />
    </PageShell>
  )
}

function RoundPanel({ view }: { view: ReturnType<typeof useRound> }) {
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

interface BetSlipProps {
  game: GameCode
  rules: Rules
  round: Round | null
  sealed: boolean
  onPlaced: (update: (bets: BetItem[]) => BetItem[]) => void
}

function BetSlip({ game, rules, round, sealed, onPlaced }: BetSlipProps) {
  const navigate = useNavigate()
  const [slip, dispatch] = useReducer(slipReducer, emptySlip)
  const [confirming, setConfirming] = useState(false)
  const [sending, setSending] = useState(false)
  const isLogin = useSession((s) => s.isLogin)
  const balance = useSession((s) => s.balance)
  const hidden = useSession((s) => s.hideAmount)
  // One key per confirmed slip: a retry of the same confirmation cannot place it twice.
  const idempotencyKey = useRef(newIdempotencyKey())

  const groups = useMemo(() => {
    const out = new Map<string, Rules['bet_types']>()
    for (const t of rules.bet_types) out.set(t.group, [...(out.get(t.group) ?? []), t])
    return [...out.entries()]
  }, [rules])
  const byType = useMemo(() => new Map(rules.bet_types.map((t) => [t.bet_type, t])), [rules])
  const check = checkSlip(slip, { minStake: rules.min_stake, maxStake: rules.max_stake, balance })

  const open = () => {
    if (!isLogin) {
      navigate(loginPath())
      return
    }
    if (sealed) return showToast('本期已封盘，请等待下一期')
    if (!check.ok) return showToast(check.message ?? '请检查投注')
    idempotencyKey.current = newIdempotencyKey()
    setConfirming(true)
  }

  const confirm = async () => {
    if (!round || sending) return
    setSending(true)
    try {
      const res = await callApi(
        placeBets,
        {
          body: {
            game,
            round_id: round.round_id,
            bets: slip.selected.map((bet_type) => ({ bet_type, amount: stakeText(slip) })),
          },
        },
        { idempotencyKey: idempotencyKey.current },
      )
      session.setBalance(amountText(res.balance))
      onPlaced((bets) => [...res.bets, ...bets.filter((b) => !res.bets.some((n) => n.id === b.id))])
      setConfirming(false)
      dispatch({ type: 'clear' })
      showToast('投注成功')
    } catch {
      // The HTTP client showed why; the sheet stays open to retry.
    } finally {
      setSending(false)
    }
  }

  return (
    <section className="games-slip" aria-disabled={sealed}>
      {groups.map(([group, types]) => (
        <div key={group} className="games-slip__group">
          <div className="games-slip__group-title">{group}</div>
          <div className="games-slip__types">
            {types.map((t) => {
              const on = slip.selected.includes(t.bet_type)
              return (
                <button
                  type="button"
                  key={t.bet_type}
                  className={on ? 'games-type games-type--on' : 'games-type'}
                  aria-pressed={on}
                  data-bet-type={t.bet_type}
                  disabled={sealed}
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
        <button type="button" onClick={() => dispatch({ type: 'half' })}>
          ½
        </button>
        <button type="button" onClick={() => dispatch({ type: 'double' })}>
          ×2
        </button>
        <button type="button" onClick={() => dispatch({ type: 'max', balance, maxStake: rules.max_stake })}>
          最大
        </button>
        <button type="button" onClick={() => dispatch({ type: 'clear' })}>
          清空
        </button>
        <span className="games-slip__balance">
          余额 <BalanceText balance={balance} hidden={hidden} />
        </span>
      </div>
      <Button block color="primary" disabled={sealed || !round} onClick={open}>
        {sealed ? '已封盘' : `投注 ${slip.selected.length} 注，共 ${hidden ? '****' : totalText(slip)}`}
      </Button>
      <Popup visible={confirming} onMaskClick={() => setConfirming(false)} bodyClassName="games-confirm">
        <h3>确认投注 · 第 {round?.round_id} 期</h3>
        <List>
          {slip.selected.map((t) => {
            const type = byType.get(t)
            const odds = type?.odds ?? '0'
            return (
              <List.Item
                key={t}
                extra={
                  <span>
                    赔率 {odds} · 可赢 {hidden ? '****' : potentialPayout(stakeText(slip), odds)}
                  </span>
                }
                description={`每注 ${hidden ? '****' : stakeText(slip)}`}
              >
                {type?.label ?? t}
              </List.Item>
            )
          })}
        </List>
        <div className="games-confirm__total">合计 {hidden ? '****' : totalText(slip)} USDT</div>
        <div className="games-confirm__actions">
          <Button onClick={() => setConfirming(false)}>取消</Button>
          <Button color="primary" loading={sending} disabled={sealed} onClick={confirm}>
            确认投注
          </Button>
        </div>
      </Popup>
    </section>
  )
}

function MyBets({ bets }: { bets: BetItem[] }) {
  const hidden = useSession((s) => s.hideAmount)
  return (
    <List header="本次投注" data-testid="my-bets">
      {bets.map((b) => (
        <List.Item
          key={b.id}
          description={`第 ${b.round_id} 期 · 赔率 ${b.odds}`}
          extra={
            <span data-testid="my-bet-status" data-status={b.status}>
              {BET_STATUS_LABEL[b.status]}
              {b.status === 'won' || b.status === 'draw' ? ` +${hidden ? '****' : amountText(b.payout)}` : ''}
            </span>
          }
        >
          {b.label} · {hidden ? '****' : amountText(b.stake)}
        </List.Item>
      ))}
    </List>
  )
}
