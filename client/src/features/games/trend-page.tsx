import { availabilityOf, PageShell, ReadState } from '@client/components/page-shell/page-shell'
import { RequireLogin } from '@client/components/require-login/require-login'
import { paths } from '@client/config/paths'
import { useLiveEvent, useLiveHealthy } from '@client/lib/live'
import { useApi } from '@client/lib/use-api'
import { betHistory, gameResults } from '@shared/contract/games'
import { GAME_CODES, type GameCode } from '@shared/games/config'
import { beadPlate, bigRoad, countLabels } from '@shared/games/roadmap'
import Selector from 'antd-mobile/es/components/selector'
import Skeleton from 'antd-mobile/es/components/skeleton'
import Tabs from 'antd-mobile/es/components/tabs'
import { type RefObject, useLayoutEffect, useRef, useState } from 'react'
import { GAME_NAMES } from './game-links'
import { labelWord } from './labels'
import { withDraw } from './live-draws'
import { attributeName, attributesOf, labelColour, labelsOf, myLabels } from './trend'
import './games.css'

const WORDS: Record<string, string> = { won: '赢', lost: '输' }
/** Draws the roads are drawn from. */
const TREND_DRAWS = 100
const word = (label: string) => WORDS[label] ?? labelWord(label)

/** `/games/zoushi`: bead plate, big road and counts for a game's attribute, and the player's own trend. */
export function TrendPage() {
  const [game, setGame] = useState<GameCode>('qukuai')
  const [attribute, setAttribute] = useState<string | null>(null)
  // The roads follow the push channel's draws; without it, the results are read every 10 s, and
  // only while the server answers: an upstream without the results is not asked again and again.
  const live = useLiveHealthy()
  const { data, error, mutate } = useApi(
    gameResults,
    { game, page: 1, page_size: TREND_DRAWS },
    { refreshInterval: (latest) => (live || !latest ? 0 : 10_000) },
  )
  useLiveEvent(
    'draw',
    (draw) => {
      if (draw.game === game)
        void mutate((current) => withDraw(current, draw, TREND_DRAWS), { revalidate: false })
    },
    [game, mutate],
  )
  useLiveEvent('snapshot', () => void mutate(), [mutate])
  const draws = data?.list ?? []
  const attributes = attributesOf(draws)
  const chosen = attribute && attributes.includes(attribute) ? attribute : (attributes[0] ?? null)

  return (
    <PageShell title="走势" fallback={paths.home}>
      <div className="games-filters">
        <Selector
          options={GAME_CODES.map((g) => ({ label: GAME_NAMES[g], value: g }))}
          value={[game]}
          onChange={(v) => {
            const next = GAME_CODES.find((g) => g === v[0])
            if (next) setGame(next)
          }}
        />
      </div>
      <Tabs className="games-tabs">
        <Tabs.Tab title="开奖走势" key="draws">
          {data ? (
            <>
              <div className="games-filters">
                <Selector
                  options={attributes.map((a) => ({ label: attributeName(a), value: a }))}
                  value={chosen ? [chosen] : []}
                  onChange={(v) => v[0] && setAttribute(v[0])}
                />
              </div>
              {chosen ? <Grids labels={labelsOf(draws, chosen)} /> : <p className="games-links">暂无开奖</p>}
            </>
          ) : (
            <ReadState
              availability={availabilityOf(data, error)}
              onRetry={() => void mutate()}
              note="当前服务暂不提供开奖走势。"
              loading={<Skeleton.Paragraph lineCount={6} animated />}
            >
              {null}
            </ReadState>
          )}
        </Tabs.Tab>
        <Tabs.Tab title="我的走势" key="mine">
          <RequireLogin>
            <MyTrend game={game} />
          </RequireLogin>
        </Tabs.Tab>
      </Tabs>
    </PageShell>
  )
}

function MyTrend({ game }: { game: GameCode }) {
  const { data, error, mutate } = useApi(betHistory, { game, page: 1, page_size: 100 })
  if (!data)
    return (
      <ReadState
        availability={availabilityOf(data, error)}
        onRetry={() => void mutate()}
        note="当前服务暂不提供我的走势。"
        loading={<Skeleton.Paragraph lineCount={6} animated />}
      >
        {null}
      </ReadState>
    )
  const labels = myLabels(data.list)
  if (labels.length === 0) return <p className="games-links">暂无已开奖的投注</p>
  return <Grids labels={labels} />
}

/**
 * Scrolls a grid sideways so that its newest column (the last one with a result) is in view at
 * the right edge, each time the results change. Only the grid scrolls, never the page.
 */
function useNewestInView(ref: RefObject<HTMLDivElement | null>, labels: readonly string[]) {
  // Only new results move the grid: a re-render with the same results leaves the player's scroll.
  const results = labels.join(',')
  useLayoutEffect(() => {
    const grid = ref.current
    if (!grid || results === '') return
    const filled = grid.querySelectorAll<HTMLElement>('[data-filled="true"]')
    const newest = filled[filled.length - 1]
    if (!newest) return
    const pad = Number.parseFloat(getComputedStyle(grid).paddingRight) || 0
    const past = newest.getBoundingClientRect().right + pad - grid.getBoundingClientRect().right
    if (past > 0) grid.scrollLeft += past
  }, [ref, results])
}

function Grids({ labels }: { labels: string[] }) {
  const plate = beadPlate(labels)
  const road = bigRoad(labels)
  const counts = countLabels(labels)
  const plateRef = useRef<HTMLDivElement>(null)
  const roadRef = useRef<HTMLDivElement>(null)
  useNewestInView(plateRef, labels)
  useNewestInView(roadRef, labels)
  return (
    <div data-testid="trend-grids">
      <div className="games-counts" data-testid="trend-counts">
        {Object.entries(counts).map(([label, n]) => (
          <span key={label} className={`games-count--${labelColour(label)}`}>
            {word(label)} {n}
          </span>
        ))}
      </div>
      <h3 className="games-grid__title">珠盘路</h3>
      <div className="games-grid" data-testid="bead-plate" ref={plateRef}>
        {plate.map((col, c) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a grid column is its position
          <div key={c} className="games-grid__col" data-filled={col.some((cell) => cell !== null)}>
            {col.map((cell, r) => (
              <span
                // biome-ignore lint/suspicious/noArrayIndexKey: a grid cell is its position
                key={r}
                className={
                  cell ? `games-grid__cell games-grid__cell--${labelColour(cell)}` : 'games-grid__cell'
                }
              >
                {cell ? word(cell) : ''}
              </span>
            ))}
          </div>
        ))}
      </div>
      <h3 className="games-grid__title">大路</h3>
      <div className="games-grid" data-testid="big-road" ref={roadRef}>
        {road.columns.map((col, c) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a grid column is its position
          <div key={c} className="games-grid__col" data-filled={col.some((cell) => cell !== null)}>
            {col.map((cell, r) => (
              <span
                // biome-ignore lint/suspicious/noArrayIndexKey: a grid cell is its position
                key={r}
                className={
                  cell
                    ? `games-grid__cell games-grid__road games-grid__cell--${labelColour(cell.label)}`
                    : 'games-grid__cell'
                }
              >
                {cell && cell.ties > 0 ? <span className="games-grid__ties">{cell.ties}</span> : null}
              </span>
            ))}
          </div>
        ))}
      </div>
    </div>
  )
}
