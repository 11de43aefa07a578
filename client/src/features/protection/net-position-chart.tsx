import { barGeometry } from './chart-geometry'

const WIDTH = 320
const HEIGHT = 120

/** The net result of each day as bars around zero: wins up, losses down. Plain SVG. */
export function NetPositionChart({ days }: { days: readonly { date: string; net_result: string }[] }) {
  const { bars, zeroY } = barGeometry(
    days.map((d) => Number(d.net_result)),
    WIDTH,
    HEIGHT,
  )
  const first = days[0]?.date
  const last = days.at(-1)?.date
  return (
    <figure className="net-chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={`每日净输赢 ${first ?? ''} 至 ${last ?? ''}`}
        data-testid="net-chart"
      >
        <line x1={0} x2={WIDTH} y1={zeroY} y2={zeroY} className="net-chart__zero" />
        {bars.map((b, i) => (
          <rect
            key={days[i]?.date ?? i}
            x={b.x}
            y={b.y}
            width={b.width}
            height={Math.max(b.height, 0)}
            className={b.positive ? 'net-chart__win' : 'net-chart__loss'}
          >
            <title>
              {days[i]?.date} {days[i]?.net_result}
            </title>
          </rect>
        ))}
      </svg>
      <figcaption className="net-chart__axis">
        <span>{first}</span>
        <span>每日净输赢</span>
        <span>{last}</span>
      </figcaption>
    </figure>
  )
}
