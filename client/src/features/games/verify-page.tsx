import Skeleton from 'antd-mobile/es/components/skeleton'
import { useEffect, useState } from 'react'
import { useSearchParams } from 'react-router-dom'
import { verifyRound } from '../../../../shared/contract/games'
import { webCryptoHasher } from '../../../../shared/games/chain'
import { PageShell } from '../../components/page-shell/page-shell'
import { paths } from '../../config/paths'
import { useApi } from '../../lib/use-api'
import { AwardText } from './award-text'
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
  useEffect(() => {
    let live = true
    verifySteps(proof, webCryptoHasher)
      .then((s) => live && setSteps(s))
      .catch((err: unknown) => {
        console.error('verification failed', err)
        if (live) setFailure('本浏览器无法完成计算（需要 Web Crypto）')
      })
    return () => {
      live = false
    }
  }, [proof])
  const { result } = proof
  return (
    <div className="games-steps">
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
        <div>终点哈希（开局前公布）</div>
        <code>{proof.commitment.terminal_hash}</code>
      </div>
      {failure ? <p className="games-bad">{failure}</p> : null}
      {steps?.map((s) => (
        <div key={s.title} className="games-step" data-testid="verify-step" data-ok={s.ok}>
          <div>
            <span className={s.ok ? 'games-ok' : 'games-bad'}>{s.ok ? '✔' : '✘'}</span> {s.title}
          </div>
          <code>{s.detail}</code>
        </div>
      ))}
      {steps ? (
        <div className={allOk(steps) ? 'games-ok' : 'games-bad'} data-testid="verify-summary">
          {allOk(steps) ? '验证通过：浏览器计算结果与服务器一致' : '验证失败：计算结果与服务器不一致'}
        </div>
      ) : null}
      {steps ? (
        <div className="games-step" data-testid="verify-recomputed">
          浏览器计算的开奖号码：{steps.at(-1)?.detail.split('（')[0]}
        </div>
      ) : null}
    </div>
  )
}
