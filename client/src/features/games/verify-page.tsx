import { DateTimeText } from '@client/components/date-time-text/date-time-text'
import { PageShell } from '@client/components/page-shell/page-shell'
import { paths } from '@client/config/paths'
import { useApi } from '@client/lib/use-api'
import { verifyRound } from '@shared/contract/games'
import { webCryptoHasher } from '@shared/games/chain'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { useEffect, useMemo, useState } from 'react'
import { useSearchParams } from 'react-router-dom'
import { AwardText } from './award-text'
import { commitmentChanged, heldFor } from './commitment'
import { readHeldCommitments } from './commitment-store'
import { DrawNumbers } from './draw-numbers'
import { GAME_NAMES, gameFromSegment } from './game-links'
import { UnknownGame } from './unknown-game'
import { allOk, type Proof, type VerifyStep, verifySteps } from './verify'
import './games.css'

/** `/verify?game=&round=`: the round recomputed in this browser with Web Crypto, step by step. */
export function VerifyPage() {
  const [params] = useSearchParams()
  const game = gameFromSegment(params.get('game') ?? undefined)
  const round = params.get('round') ?? ''
  if (!game || !/^\d{1,15}$/.test(round)) return <UnknownGame />
  return <Verify key={`${game}:${round}`} game={game} round={round} />
}

function Verify({ game, round }: { game: NonNullable<ReturnType<typeof gameFromSegment>>; round: string }) {
  const { data, error } = useApi(verifyRound, { game, round_id: round })
  return (
    <PageShell title={`验证 · ${GAME_NAMES[game]} 第 ${round} 期`} fallback={paths.betHistory}>
      {data ? <Steps proof={data} /> : error ? <p className="games-links">{error.message}</p> : null}
      {!data && !error ? <Skeleton.Paragraph lineCount={6} animated /> : null}
    </PageShell>
  )
}

function Steps({ proof }: { proof: Proof }) {
  const [steps, setSteps] = useState<VerifyStep[] | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  // The commitment this device held for the round's chain: the proof is checked against it.
  const held = useMemo(() => heldFor(readHeldCommitments(), proof.result.height), [proof])
  useEffect(() => {
    let live = true
    verifySteps(proof, held, webCryptoHasher)
      .then((s) => live && setSteps(s))
      .catch((err: unknown) => {
        console.error('verification failed', err)
        if (live) setFailure('本浏览器无法完成计算（需要 Web Crypto）')
      })
    return () => {
      live = false
    }
  }, [proof, held])
  const { result } = proof
  const changed = held !== null && commitmentChanged(held, proof.commitment)
  const numbers = steps?.find((s) => s.kind === 'numbers')
  return (
    <div className="games-steps">
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
      {held === null ? (
        <div className="games-warning" role="alert" data-testid="commitment-missing">
          本机没有这条链开局前公布的承诺，无法独立验证密钥链。打开任一游戏页面后，本机会记下承诺，之后的开奖都可据此验证。
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
      {steps?.map((s) => (
        <div key={s.title} className="games-step" data-testid="verify-step" data-kind={s.kind} data-ok={s.ok}>
          <div>
            <span className={s.ok ? 'games-ok' : 'games-bad'}>{s.ok ? '✔ 通过' : '✘ 不通过'}</span> {s.title}
          </div>
          <code>{s.detail}</code>
        </div>
      ))}
      {steps ? (
        <div className={allOk(steps) ? 'games-ok' : 'games-bad'} data-testid="verify-summary">
          {allOk(steps)
            ? '验证通过：浏览器计算结果与服务器一致'
            : '验证失败：计算结果与服务器或本机保存的承诺不一致'}
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
