import type { drawResultSchema } from '@shared/contract/games'
import type { z } from 'zod'
import { ballName, labelWord } from './labels'
import { labelColour } from './trend'

type Draw = z.infer<typeof drawResultSchema>

/** A ball's classes; in racing each car number has its own colour (games.css, "Racing cars"). */
export function ballClass(game: Draw['game'], n: number): string {
  const car = game === 'saiche' && n >= 1 && n <= 10 ? ` games-car games-car--${n}` : ''
  return `games-ball games-ball--${game}${car}`
}

/**
 * The numbers a draw decided, as balls each captioned with what it is (万 千 百…, 冠 亚…, 庄点 闲点),
 * then the labels that decided the bets in words and colours (大 单 庄…).
 */
export function DrawNumbers({ draw }: { draw: Draw }) {
  return (
    <span className="games-draw" data-testid="draw-numbers">
      {draw.numbers.map((n, i) => {
        const name = ballName(draw.game, i)
        return (
          // The position is what a number means (ball 1…5, car in place 1…10).
          // biome-ignore lint/suspicious/noArrayIndexKey: positions are fixed
          <span key={i} className="games-ball-cell" role="img" aria-label={`${name} ${n}`}>
            <span className={ballClass(draw.game, n)} aria-hidden="true">
              {n}
            </span>
            <span className="games-ball-name" aria-hidden="true">
              {name}
            </span>
          </span>
        )
      })}
      <span className="games-draw__labels" data-testid="draw-labels">
        {Object.entries(draw.labels).map(([key, label]) => (
          <span key={key} className={`games-label games-label--${labelColour(label)}`}>
            {labelWord(label)}
          </span>
        ))}
      </span>
    </span>
  )
}
