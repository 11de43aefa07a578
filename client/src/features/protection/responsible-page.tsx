import { NumText } from '@client/components/num-text/num-text'
import { PageShell } from '@client/components/page-shell/page-shell'
import { paths } from '@client/config/paths'
import { type ApiError, callApi } from '@client/lib/http'
import { useSession } from '@client/lib/session-store'
import { gameRules } from '@shared/contract/games'
import { protectionLimits } from '@shared/contract/protection'
import { GAME_CODES, type GameCode } from '@shared/games/config'
import List from 'antd-mobile/es/components/list'
import { Link, useNavigate } from 'react-router-dom'
import useSWR from 'swr'
import { edgePercent, lossPerHundred } from './protection-format'
import { useProtectionRead } from './use-protection-read'
import './protection.css'

/** The range of house edges over a game's bet types, from the rules endpoint the rules pages read. */
interface GameEdge {
  readonly game: GameCode
  readonly name: string
  readonly min: number
  readonly max: number
}

async function loadEdges(): Promise<GameEdge[]> {
  const all = await Promise.all(
    GAME_CODES.map((game) => callApi(gameRules, { query: { game } }, { quiet: true })),
  )
  return all.map((rules, i) => {
    const edges = rules.bet_types.map((t) => t.house_edge)
    return {
      game: GAME_CODES[i] ?? rules.game,
      name: rules.name,
      min: Math.min(...edges),
      max: Math.max(...edges),
    }
  })
}

/** 负责任博彩: what the games cost on average, the player's own controls, and where to get help. */
/** "2.00" alone when both ends read the same once rounded, else "2.00–2.04". */
const span = (low: string, high: string, dash: string): string =>
  low === high ? low : `${low}${dash}${high}`

export function ResponsiblePage() {
  const navigate = useNavigate()
  const isLogin = useSession((s) => s.isLogin)
  const edges = useSWR<GameEdge[], ApiError>(['quiet', 'house-edges'], loadEdges, {
    shouldRetryOnError: false,
  })
  // Logged out, the controls cannot be asked about; their pages ask for a login first.
  const controls = useProtectionRead(protectionLimits, isLogin ? undefined : null)
  const showControls = !isLogin || controls.availability !== 'missing'

  return (
    <PageShell title="负责任博彩" fallback={paths.mine}>
      <div className="protection-page responsible-page">
        <section className="protection-text">
          <p>
            <strong>游戏是娱乐，不是赚钱的方法。</strong>
            每一注的结果都是随机的，输赢无法预测，也无法靠“追注”或“规律”扭转。请只用输得起的钱游戏，并且只限成年人（18
            岁以上）。
          </p>
        </section>

        {edges.data ? (
          <List header="长期来看，庄家一定占优" mode="card" data-testid="house-edge" data-public-figure>
            {edges.data.map((e) => (
              <List.Item
                key={e.game}
                description={
                  <NumText
                    text={`平均每投注 100 USDT，长期损失约 ${span(lossPerHundred(e.min), lossPerHundred(e.max), '–')} USDT`}
                  />
                }
                extra={span(edgePercent(e.min), edgePercent(e.max), ' – ')}
              >
                {e.name}
              </List.Item>
            ))}
          </List>
        ) : null}
        {edges.data ? (
          <p className="protection-help">
            庄家优势来自各游戏的赔率与中奖概率（见各游戏的“玩法规则”）。玩得越多，实际结果越接近这个平均损失。
          </p>
        ) : null}

        {showControls ? (
          <List header="帮助你控制游戏" mode="card" data-testid="protection-links">
            <List.Item
              arrowIcon
              onClick={() => navigate(paths.protection)}
              description="设置每日、每周、每月的充值和亏损上限"
            >
              充值限额与亏损限额
            </List.Item>
            <List.Item
              arrowIcon
              onClick={() => navigate(paths.protection)}
              description="每 15、30 或 60 分钟提醒你玩了多久、输赢多少"
            >
              游戏时间提醒
            </List.Item>
            <List.Item
              arrowIcon
              onClick={() => navigate(paths.protection)}
              description="暂停 24 小时至 6 周，或自我排除 6 个月至 5 年"
            >
              暂停游戏与自我排除
            </List.Item>
            <List.Item
              arrowIcon
              onClick={() => navigate(paths.netPosition)}
              description="今日、近 7 天、近 30 天的充值、提现与输赢"
            >
              输赢统计
            </List.Item>
            <List.Item
              arrowIcon
              onClick={() => navigate(paths.excludedWithdraw)}
              description="暂停或自我排除期间无法登录，仍可在此提取余额"
            >
              暂停期提现
            </List.Item>
          </List>
        ) : null}

        <section className="protection-text">
          <h2>这些迹象值得注意</h2>
          <ul>
            <li>花在游戏上的时间或金钱比原计划多；</li>
            <li>想把输掉的钱赢回来；</li>
            <li>借钱游戏，或因游戏影响工作、学习和家庭。</li>
          </ul>
          <p>
            如有以上情况，请先暂停游戏，与家人朋友聊聊，或寻求专业心理辅导。需要帮助时也可以
            <Link to={paths.service}>联系客服</Link>。
          </p>
        </section>
      </div>
    </PageShell>
  )
}
