import { SIDE_LABEL } from '@shared/games/bet-types'
import type { GameCode } from '@shared/games/config'

/** Words for the labels a draw carries (big → 大 …): the same words the bet slip uses. */
export const LABEL_WORDS: Readonly<Record<string, string>> = SIDE_LABEL

export const labelWord = (label: string): string => LABEL_WORDS[label] ?? label

/** What each drawn number is, in the order the server lists them. */
const BALL_NAMES: Record<GameCode, readonly string[]> = {
  qukuai: ['哈希位', '庄点', '闲点'],
  hassize: ['哈希位', '前一位', '和值'],
  kuaisan: ['骰一', '骰二', '骰三'],
  shishicai: ['万', '千', '百', '十', '个'],
  saiche: ['冠', '亚', '三', '四', '五', '六', '七', '八', '九', '十'],
}

export const ballName = (game: GameCode, index: number): string =>
  BALL_NAMES[game][index] ?? `第${index + 1}位`
