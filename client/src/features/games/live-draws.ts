import type { DataOf } from '@shared/contract/endpoint'
import type { gameResults } from '@shared/contract/games'

type Results = DataOf<typeof gameResults>
export type Draw = Results['list'][number]

/**
 * A results page with a draw from the push channel put in front (docs/realtime.md): newest first,
 * at most `size` rows, a draw already there left as it is. Undefined (nothing loaded yet) stays so.
 */
export function withDraw(results: Results | undefined, draw: Draw, size: number): Results | undefined {
  if (!results || results.list.some((d) => d.round_id === draw.round_id)) return results
  const newest = results.list[0]
  // An older draw arriving late (a replay) is not put in front; the next read places it.
  if (newest && newest.draw_at > draw.draw_at) return results
  return { ...results, list: [draw, ...results.list].slice(0, size), total: results.total + 1 }
}
