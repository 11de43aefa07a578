/**
 * What the trend page plots: for one attribute of a game's draws (e.g. big_small) the labels in
 * draw order, and their colours (docs/game-rules.md#result-grids). Pure, so the grids can be tested without a page.
 */

export type LabelColour = 'red' | 'blue' | 'green'

const RED = new Set(['banker', 'big', 'odd', 'lucky', 'dragon', 'won'])
const BLUE = new Set(['player', 'small', 'even', 'unlucky', 'tiger', 'lost'])

/** Banker/big/odd/lucky red, player/small/even/unlucky blue, tie green. */
export function labelColour(label: string): LabelColour {
  if (RED.has(label)) return 'red'
  if (BLUE.has(label)) return 'blue'
  return 'green'
}

export const ATTRIBUTE_NAMES: Record<string, string> = {
  big_small: '大小',
  odd_even: '单双',
  lucky: '幸运',
  banker_player: '庄闲和',
  sum_big_small: '和值大小',
  sum_odd_even: '和值单双',
  dragon_tiger: '龙虎和',
  top2_big_small: '冠亚和大小',
  top2_odd_even: '冠亚和单双',
}

export function attributeName(key: string): string {
  const named = ATTRIBUTE_NAMES[key]
  if (named) return named
  const m = /^dragon_tiger_(\d+)$/.exec(key)
  return m ? `龙虎（第${m[1]}名）` : key
}

/** The attributes the draws carry, in the order the first draw lists them. */
export function attributesOf(draws: readonly { labels: Record<string, string> }[]): string[] {
  return Object.keys(draws[0]?.labels ?? {})
}

/** Labels of one attribute, oldest first, from draws listed newest first. */
export function labelsOf(draws: readonly { labels: Record<string, string> }[], attribute: string): string[] {
  const out: string[] = []
  for (let i = draws.length - 1; i >= 0; i--) {
    const label = draws[i]?.labels[attribute]
    if (label !== undefined) out.push(label)
  }
  return out
}

/** The player's own results as labels, oldest first: won, lost, and a refund counted as a tie. */
export function myLabels(bets: readonly { status: string }[]): string[] {
  const out: string[] = []
  for (let i = bets.length - 1; i >= 0; i--) {
    const s = bets[i]?.status
    if (s === 'won' || s === 'lost') out.push(s)
    else if (s === 'draw') out.push('tie')
  }
  return out
}
