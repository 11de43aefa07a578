import { labelWord } from './labels'
import { currentStreaks, LONG_STREAK } from './streaks'
import { labelColour } from './trend'

/** 长龙: the current run of each bet type, from the latest draws (newest first). */
export function StreakBoard({ draws }: { draws: readonly { labels: Record<string, string> }[] | null }) {
  if (draws === null || draws.length === 0) return null
  const streaks = currentStreaks(draws)
  return (
    <section className="games-streaks" aria-labelledby="games-streaks-title" data-testid="streaks">
      <div id="games-streaks-title" className="games-streaks__title">
        长龙 · 近 {draws.length} 期连开
      </div>
      <ul className="games-streaks__list">
        {streaks.map((s) => (
          <li
            key={s.attribute}
            className={s.count >= LONG_STREAK ? 'games-streak games-streak--long' : 'games-streak'}
            data-testid="streak"
            data-attribute={s.attribute}
            data-label={s.label}
            data-count={s.count}
          >
            <span className={`games-label games-label--${labelColour(s.label)}`}>{labelWord(s.label)}</span>
            <span>{s.name}</span>
            <span className="games-streak__count">
              {s.count}
              {s.open ? '+' : ''} 期
            </span>
          </li>
        ))}
      </ul>
    </section>
  )
}
