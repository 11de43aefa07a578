import { attributeName } from './trend'

/**
 * The streak board (长龙): for each thing a draw decides (big/small, odd/even, dragon/tiger…), the
 * label of the latest draw and how many draws in a row, counting back from it, had the same label.
 * Pure, from the draws newest first, so it can be tested without a page.
 */

export interface Streak {
  /** The draw attribute, e.g. big_small. */
  attribute: string
  /** Its words, e.g. 大小. */
  name: string
  /** The label of the run, e.g. big. */
  label: string
  count: number
  /** The run reaches back past the oldest draw given: it is at least `count` long. */
  open: boolean
}

/** A run this long is what players call a long dragon (长龙) and is marked. */
export const LONG_STREAK = 5

/** Current runs per attribute, longest first (ties in the draws' own attribute order). */
export function currentStreaks(draws: readonly { labels: Record<string, string> }[]): Streak[] {
  const newest = draws[0]
  if (!newest) return []
  const out: Streak[] = []
  for (const [attribute, label] of Object.entries(newest.labels)) {
    let count = 0
    while (count < draws.length && draws[count]?.labels[attribute] === label) count++
    out.push({ attribute, name: attributeName(attribute), label, count, open: count === draws.length })
  }
  return out.sort((a, b) => b.count - a.count)
}
