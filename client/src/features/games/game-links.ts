import { paths } from '@client/config/paths'
import { type GameCode, gameCodeSchema } from '@shared/games/config'

/** The game a `/games/<code>` path (or a `:game` parameter) names, or null. */
export function gameFromSegment(segment: string | undefined): GameCode | null {
  const parsed = gameCodeSchema.safeParse(segment)
  return parsed.success ? parsed.data : null
}

/** `/games/kuaisan/history` → kuaisan. */
export const gameFromPath = (pathname: string): GameCode | null => gameFromSegment(pathname.split('/')[2])

export const resultsHistoryPath = (game: GameCode): string => paths.gameResultsHistory.replace(':game', game)
export const rulesPath = (game: GameCode): string => paths.gameRulesPage.replace(':game', game)
export const gamePath = (game: GameCode): string => `/games/${game}`

export function verifyPath(game: GameCode, roundId: string): string {
  return `${paths.verify}?${new URLSearchParams({ game, round: roundId }).toString()}`
}

/** Names for the list when the server's list has not arrived. */
export const GAME_NAMES: Record<GameCode, string> = {
  qukuai: '区块游戏',
  hassize: '哈希大小',
  kuaisan: '快三',
  shishicai: '时时彩',
  saiche: '赛车',
}
