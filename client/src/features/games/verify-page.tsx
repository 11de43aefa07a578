import { DateTimeText } from '@client/components/date-time-text/date-time-text'
import { PageShell } from '@client/components/page-shell/page-shell'
import { paths } from '@client/config/paths'
import { formatDateTime } from '@client/lib/date-time'
import { isEndpointMissing } from '@client/lib/endpoint-status'
import { callApi } from '@client/lib/http'
import { useSession } from '@client/lib/session-store'
import { useApi } from '@client/lib/use-api'
import { dayOf } from '@shared/business-day'
import { betHistory, gameRules, verifyRound } from '@shared/contract/games'
import { webCryptoHasher } from '@shared/games/chain'
import type { GameCode } from '@shared/games/config'
import { isLottery, minuteOfIssue } from '@shared/games/rounds'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { useEffect, useMemo, useState } from 'react'
import { useSearchParams } from 'react-router-dom'
import { AwardText } from './award-text'
import { commitmentChanged, heldFor } from './commitment'
import { readHeldCommitments } from './commitment-store'
import { DrawNumbers } from './draw-numbers'
import { GAME_NAMES, gameFromSegment } from './game-links'
import { UnknownGame } from './unknown-game'
import {
  allOk,
  type BetRecord,
  type PageRound,
  type PlayerBets,
  type Proof,
  type VerifyStep,
  verifySteps,
} from './verify'
import './games.css'

/** `/verify?game=&round=`: the round recomputed in this browser with Web Crypto, step by step. */
export function VerifyPage() {
  const [params] = useSearchParams()
  const game = gameFromSegment(params.get('game') ?? undefined)
  const round = params.get('round') ?? ''
  if (!game || !/^\d{1,15}$/.test(round)) return <UnknownGame />
  return <Verify key={`${game}:${round}`} game={game} round={round} />
}

function Verify({ game, round }: { game: GameCode; round: string }) {
  const { data, error } = useApi(verifyRound, { game, round_id: round })
  const page = useMemo<PageRound>(() => ({ game, roundId: round }), [game, round])
  return (
    <PageShell title={`验证 · ${GAME_NAMES[game]} 第 ${round} 期`} fallback={paths.betHistory}>
      {data ? (
        <Steps page={page} proof={data} />
      ) : isEndpointMissing(error) ? (
        <p className="games-links" data-testid="endpoint-missing">
          当前服务暂不支持核验开奖。
        </p>
      ) : error ? (
        <p className="games-links">{error.message}</p>
      ) : null}
      {!data && !error ? <Skeleton.Paragraph lineCount={6} animated /> : null}
    </PageShell>
  )
}

const MINUTE = 60_000
/** Bets go to the current round or the next: placed at most this long before the draw, with room to spare. */
const PLACED_BEFORE_DRAW_MS = 10 * MINUTE
const MAX_HISTORY_PAGES = 20

/**
 * When the page's round is drawn, worked out from the round id and the held block time, not taken
 * from the proof: the window of bet history searched for the player's bets of the round.
 */
function drawTimeOf(page: PageRound, blockMs: number): number {
  if (isLottery(page.game)) return (minuteOfIssue(page.roundId) ?? 0) + 2 * MINUTE
  return Number(page.roundId) * blockMs
}

/** The player's bets of the round from their bet history (newest first, paged by date). */
async function loadPlayerBets(page: PageRound, drawAt: number): Promise<PlayerBets> {
  const earliest = drawAt - PLACED_BEFORE_DRAW_MS
  const query = { game: page.game, date_from: dayOf(earliest), date_to: dayOf(drawAt), page_size: 100 }
  try {
    const bets: BetRecord[] = []
    for (let n = 1; n <= MAX_HISTORY_PAGES; n++) {
      const res = await callApi(betHistory, { query: { ...query, page: n } }, { quiet: true })
      bets.push(...res.list.filter((b) => b.game === page.game && b.round_id === page.roundId))
      const last = res.list.at(-1)
      if (!res.has_more || !last || last.placed_at < earliest) break
    }
    let tripleVoidsBigSmall: boolean | null = null
    if (page.game === 'kuaisan' && bets.length > 0) {
      // Big's chance is 108/216 unless a triple loses it (105/216): the published rule.
      const rules = await callApi(gameRules, { query: { game: page.game } }, { quiet: true }).catch(
        () => null,
      )
      const big = rules?.bet_types.find((t) => t.bet_type === 'big')
      if (big) tripleVoidsBigSmall = big.win_probability < 0.5 - 1e-9
    }
    return { kind: 'loaded', bets, tripleVoidsBigSmall }
  } catch (err) {
    return { kind: 'failed', message: err instanceof Error ? err.message : String(err) }
  }
}

function Steps({ page, proof }: { page: PageRound; proof: Proof }) {
  const [steps, setSteps] = useState<VerifyStep[] | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const loggedIn = useSession((s) => s.isLogin)
  // The commitment this device held for the round's chain: the proof is checked against it. Read
  // once: a game page open in another tab must not change what this check was made against.
  const stored = useMemo(() => readHeldCommitments(), [])
  const damaged = stored.damaged.length > 0
  const held = useMemo(() => heldFor(stored.held, proof.result.height), [stored, proof])
  useEffect(() => {
    let live = true
    const blockMs = held?.block_ms ?? proof.commitment.block_ms
    const bets: Promise<PlayerBets> = loggedIn
      ? loadPlayerBets(page, drawTimeOf(page, blockMs))
      : Promise.resolve({ kind: 'logged-out' })
    bets
      .then((b) => verifySteps({ page, proof, held, damaged, bets: b }, webCryptoHasher))
      .then((s) => live && setSteps(s))
      .catch((err: unknown) => {
        console.error('verification failed', err)
        if (live) setFailure('本浏览器无法完成计算（需要 Web Crypto）')
      })
    return () => {
      live = false
    }
  }, [page, proof, held, damaged, loggedIn])
  const { result } = proof
  const changed = held !== null && commitmentChanged(held, proof.commitment)
  const numbers = steps?.find((s) => s.kind === 'numbers')
  const ok = steps !== null && allOk(steps)
  return (
    <div className="games-steps">
      {damaged ? (
        <div className="games-warning" role="alert" data-testid="commitment-damaged">
          <strong>警告：本机保存的承诺已损坏！</strong>
          <p>本机记下的终点哈希有无法读取的记录，可能已被改动，本期无法验证。请打开游戏页面处理。</p>
        </div>
      ) : null}
      {changed ? (
        <div className="games-warning" role="alert" data-testid="commitment-changed">
          <strong>警告：服务器的承诺已改变！</strong>
          <p>
            本机 <DateTimeText ms={held.seen_at} />{' '}
            记下的终点哈希与服务器现在给出的不同。该期结果只按本机保存的承诺验证；
            服务器可能更换了密钥链，请勿相信它自己的证明。
          </p>
          <div>本机保存：</div>
          <code>{held.terminal_hash}</code>
          <div>服务器现在：</div>
          <code>{proof.commitment.terminal_hash}</code>
        </div>
      ) : null}
      {held !== null && held.seen_at > result.draw_at ? (
        <div className="games-warning" role="alert" data-testid="commitment-late">
          本机在该期开奖之后（{formatDateTime(held.seen_at)}）才首次记下这条链的承诺，
          它不能证明开奖前结果已经确定。请在投注前打开游戏页面，让本机先记下承诺。
        </div>
      ) : null}
      {held === null && !damaged ? (
        <div className="games-warning" role="alert" data-testid="commitment-missing">
          本机没有这条链开局前公布的承诺，无法独立验证密钥链。打开任一游戏页面后，本机会记下承诺，之后的开奖都可据此验证。
        </div>
      ) : null}
      {steps && !ok ? (
        <div className="games-warning" role="alert" data-testid="verify-failed">
          <strong>警告：验证失败！</strong>
          <p>服务器的证明与本机的计算、承诺或你的投注记录不符，请勿相信该期结果。</p>
        </div>
      ) : null}
      <div className="games-step">
        <div>服务器公布的结果</div>
        <DrawNumbers draw={result} />
        <div>
          区块 {result.height}：<AwardText hash={result.block_hash} />
        </div>
      </div>
      <div className="games-step">
        <div>公布的密钥（区块 {proof.block_number}）</div>
        <code>{proof.key}</code>
        <div>
          本机保存的承诺（终点哈希）
          {held ? (
            <>
              · <DateTimeText ms={held.seen_at} /> 首次看到
            </>
          ) : null}
        </div>
        <code data-testid="held-commitment">{held?.terminal_hash ?? '无'}</code>
      </div>
      {failure ? <p className="games-bad">{failure}</p> : null}
      {steps?.map((s, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the steps of one check, recomputed as a whole
        <div key={i} className="games-step" data-testid="verify-step" data-kind={s.kind} data-ok={s.ok}>
          <div>
            <span className={s.ok ? 'games-ok' : 'games-bad'}>{s.ok ? '✔ 通过' : '✘ 不通过'}</span> {s.title}
          </div>
          <code>{s.detail}</code>
        </div>
      ))}
      {steps && !steps.some((s) => s.kind === 'bets') ? (
        <p className="games-links" data-testid="verify-no-bets">
          {loggedIn ? '你的投注记录中没有本期的注单' : '未登录'}
          ：开奖结果只与服务器公布的结果比对。
        </p>
      ) : null}
      {steps ? (
        <div className={ok ? 'games-ok' : 'games-bad'} data-testid="verify-summary">
          {ok
            ? '验证通过：浏览器计算结果与服务器一致'
            : '验证失败：计算结果与服务器、本机保存的承诺或你的投注记录不一致'}
        </div>
      ) : null}
      {numbers ? (
        <div className="games-step" data-testid="verify-recomputed">
          浏览器计算的开奖号码：{numbers.detail.split('（')[0]}
        </div>
      ) : null}
    </div>
  )
}
