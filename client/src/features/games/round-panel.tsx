import { DateTimeText } from '@client/components/date-time-text/date-time-text'
import { ReadState } from '@client/components/page-shell/page-shell'
import { copyText } from '@client/lib/copy'
import { formatDateTime } from '@client/lib/date-time'
import { truncate } from '@client/lib/format'
import type { DataOf } from '@shared/contract/endpoint'
import type { gameResults } from '@shared/contract/games'
import type { GameCode } from '@shared/games/config'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { Link } from 'react-router-dom'
import { AwardText } from './award-text'
import { formatCountdown } from './countdown'
import { DrawNumbers } from './draw-numbers'
import { verifyPath } from './game-links'
import type { CommitmentView } from './use-commitment'
import type { RoundView } from './use-round'

type Draw = DataOf<typeof gameResults>['list'][number]

/** The round bets go to now: its number, whether it still takes bets, both countdowns and the last draw. */
export function RoundPanel({ view }: { view: RoundView }) {
  const { round, msToSeal, msToDraw, sealed } = view
  if (view.missing)
    return (
      <ReadState availability="missing" note="当前服务暂不支持此游戏的期号与开奖，暂时无法投注。">
        {null}
      </ReadState>
    )
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
        <RoundClock label="距封盘" testId="to-seal" ms={msToSeal} />
        <RoundClock label="距开奖" testId="to-draw" ms={msToDraw} />
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

/** One of the round's two countdowns, with what it counts down to. */
function RoundClock({ label, testId, ms }: { label: string; testId: string; ms: number }) {
  return (
    <div>
      <div className="games-round__label">{label}</div>
      <div className="games-round__time" data-testid={testId}>
        {formatCountdown(ms)}
      </div>
    </div>
  )
}

/** The latest draws side by side, newest first; it follows each draw without a reload. */
export function ResultsStrip({ game, draws }: { game: GameCode; draws: Draw[] | null }) {
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
export function CommitmentPanel({ view }: { view: CommitmentView }) {
  const { current, held, changed, damaged, unsaved, repair } = view
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
        {held ? (
          <>
            {' · 本机 '}
            <DateTimeText ms={held.seen_at} /> 记下，验证以此为准
          </>
        ) : null}
      </div>
      {changed ? (
        <div className="games-warning" role="alert" data-testid="commitment-changed">
          <strong>警告：服务器的承诺已改变！</strong>
          <p>服务器现在公布的终点哈希与本机先前记下的不同，之后的开奖无法用你持有的承诺证明。</p>
          <code>{current.terminal_hash}</code>
        </div>
      ) : null}
      {damaged.length > 0 ? (
        <div className="games-warning" role="alert" data-testid="commitment-damaged">
          <strong>警告：本机保存的承诺已损坏！</strong>
          <p>
            本机记下的终点哈希无法读取，可能已被改动。在你确认之前，本机不会记下服务器现在的承诺，
            这些记录所覆盖的开奖都无法验证。
          </p>
          <button type="button" className="games-tap games-copy" onClick={repair}>
            清除损坏的记录，改记服务器现在的承诺
          </button>
        </div>
      ) : null}
      {unsaved ? (
        <div className="games-warning" role="alert" data-testid="commitment-unsaved">
          <strong>警告：本机无法保存承诺！</strong>
          <p>浏览器拒绝写入（存储已满或被禁用），之后的开奖无法用本机的承诺验证。</p>
        </div>
      ) : null}
    </section>
  )
}
