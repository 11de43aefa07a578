import { availabilityOf, PageShell, ReadState } from '@client/components/page-shell/page-shell'
import { useApi } from '@client/lib/use-api'
import { gameRules } from '@shared/contract/games'
import type { GameCode } from '@shared/games/config'
import List from 'antd-mobile/es/components/list'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { useParams } from 'react-router-dom'
import { potentialPayout } from './bet-slip'
import { GAME_NAMES, gameFromSegment, gamePath } from './game-links'
import { UnknownGame } from './unknown-game'
import './games.css'

/** 0.025 → "2.50%"; a negative edge favours the player and shows its sign. */
export const percent = (x: number): string => `${(x * 100).toFixed(2)}%`

/** A game's bet types with odds, win probability and house edge, shown honestly (docs/game-rules.md#odds). */
export function RulesPage() {
  const game = gameFromSegment(useParams().game)
  if (!game) return <UnknownGame />
  return <Rules key={game} game={game} />
}

function Rules({ game }: { game: GameCode }) {
  const { data, error, mutate } = useApi(gameRules, { game })
  return (
    <PageShell title={`${data?.name ?? GAME_NAMES[game]} · 规则`} fallback={gamePath(game)}>
      {data ? (
        // The game's rules: stake limits and odds, figures of the game, not the player's money.
        <div data-public-figure>
          <List header="开奖">
            <List.Item extra={`${data.round_ms / 1000} 秒`}>每期时长</List.Item>
            <List.Item extra={`开奖前 ${data.seal_ms / 1000} 秒`}>封盘</List.Item>
            <List.Item extra={`${data.min_stake} – ${data.max_stake} USDT`}>单注限额</List.Item>
          </List>
          <List header="赔率、中奖概率与庄家优势" data-testid="rules-table">
            {data.bet_types.map((t) => (
              <List.Item
                key={t.bet_type}
                data-testid="rule-row"
                data-bet-type={t.bet_type}
                description={`${t.group} · 中奖概率 ${percent(t.win_probability)}${
                  t.refund_probability > 0 ? ` · 退款概率 ${percent(t.refund_probability)}` : ''
                }`}
                extra={
                  <span>
                    赔率 {t.odds}
                    <br />
                    庄家优势 {percent(t.house_edge)}
                  </span>
                }
              >
                {t.label}
              </List.Item>
            ))}
          </List>
          {data.bet_types[0] ? (
            <p className="games-links" data-testid="odds-example">
              赔率含本金：投注 100 按赔率 {data.bet_types[0].odds} 中奖，派彩{' '}
              {potentialPayout('100', data.bet_types[0].odds)}。
            </p>
          ) : null}
        </div>
      ) : (
        <ReadState
          availability={availabilityOf(data, error)}
          onRetry={() => void mutate()}
          note="当前服务暂不提供此游戏的规则与赔率。"
          loading={<Skeleton.Paragraph lineCount={8} animated />}
        >
          {null}
        </ReadState>
      )}
    </PageShell>
  )
}
