import type { z } from 'zod'
import type { drawResultSchema } from '../../../../shared/contract/games'

type Draw = z.infer<typeof drawResultSchema>

/** Words for the labels the server attaches to a draw. */
export const LABEL_WORDS: Record<string, string> = {
  big: '大',
  small: '小',
  odd: '单',
  even: '双',
  lucky: '幸运',
  unlucky: '不幸运',
  banker: '庄',
  player: '闲',
  tie: '和',
  dragon: '龙',
  tiger: '虎',
}

export const labelWord = (label: string): string => LABEL_WORDS[label] ?? label

/** The numbers a draw decided, as balls, with the labels in words (e.g. "大 单 庄"). */
export function DrawNumbers({ draw }: { draw: Draw }) {
  const labels = Object.values(draw.labels).map(labelWord)
  return (
    <span className="games-draw" data-testid="draw-numbers">
      {draw.numbers.map((n, i) => (
        // The position is what a number means (ball 1…5, car in place 1…10).
        // biome-ignore lint/suspicious/noArrayIndexKey: positions are fixed
        <span key={i} className={`games-ball games-ball--${draw.game}`}>
          {n}
        </span>
      ))}
      <span className="games-draw__labels">{labels.join(' ')}</span>
    </span>
  )
}
