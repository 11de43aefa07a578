import type { Db } from '@server/db/database'

/** How deep the team goes for counting and listing; the tree is walked no further. */
export const MAX_TEAM_DEPTH = 10

/**
 * Bets that count as turnover: settled and either won or lost (a draw returns the stake). A bet is
 * settled at its round's draw, so turnover in a time range is read by draw time (`draw_at`, indexed
 * with the player).
 */
const TURNOVER = `status IN ('won', 'lost')`

interface Range {
  from: number
  to: number
}

/** Everyone below @root, with their level, at most MAX_TEAM_DEPTH deep. */
const TEAM_CTE = `
  WITH RECURSIVE team(id, level) AS (
    SELECT id, 1 FROM players WHERE inviter_id = @root
    UNION ALL
    SELECT p.id, t.level + 1 FROM players p JOIN team t ON p.inviter_id = t.id WHERE t.level < ${MAX_TEAM_DEPTH}
  )`

export interface MemberRow {
  player_id: number
  nickname: string
  phone: string
  level: number
  inviter_id: number
  joined_at: number
  direct_count: number
}

export interface MemberTurnoverRow {
  player_id: number
  level: number
  turnover_micro: number
  bet_count: number
}

export interface SearchFilter {
  readonly keyword?: string | undefined
  readonly level?: number | undefined
  readonly limit: number
  readonly offset: number
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`)

/** The referral tree (players.inviter_id) and the turnover of its members. Read-only. */
export class TeamRepository {
  private readonly levelCounts
  private readonly ownTurnover
  private readonly teamTurnover
  private readonly membersTurnover
  private readonly levelOf

  constructor(private readonly db: Db) {
    this.levelCounts = db.prepare<[{ root: number }], { level: number; count: number }>(
      `${TEAM_CTE} SELECT level, COUNT(*) AS count FROM team GROUP BY level ORDER BY level`,
    )
    this.ownTurnover = db.prepare<
      [Range & { player: number }],
      { turnover_micro: number; bet_count: number }
    >(
      `SELECT COALESCE(SUM(stake_micro), 0) AS turnover_micro, COUNT(*) AS bet_count FROM bets
       WHERE player_id = @player AND ${TURNOVER} AND draw_at >= @from AND draw_at < @to`,
    )
    this.teamTurnover = db.prepare<[Range & { root: number }], { turnover_micro: number }>(
      `${TEAM_CTE} SELECT COALESCE(SUM(b.stake_micro), 0) AS turnover_micro
       FROM team t JOIN bets b ON b.player_id = t.id
       WHERE b.${TURNOVER} AND b.draw_at >= @from AND b.draw_at < @to`,
    )
    this.membersTurnover = db.prepare<[Range & { root: number }], MemberTurnoverRow>(
      `${TEAM_CTE} SELECT t.id AS player_id, t.level AS level, SUM(b.stake_micro) AS turnover_micro, COUNT(*) AS bet_count
       FROM team t JOIN bets b ON b.player_id = t.id
       WHERE b.${TURNOVER} AND b.draw_at >= @from AND b.draw_at < @to
       GROUP BY t.id`,
    )
    this.levelOf = db.prepare<[{ root: number; member: number }], { level: number }>(
      `${TEAM_CTE} SELECT level FROM team WHERE id = @member`,
    )
  }

  /** Team members per level, level 1 first. */
  countsByLevel(rootId: number): { level: number; count: number }[] {
    return this.levelCounts.all({ root: rootId })
  }

  /** The member's level under the root, or undefined when the member is not in the root's team. */
  levelUnder(rootId: number, memberId: number): number | undefined {
    return this.levelOf.get({ root: rootId, member: memberId })?.level
  }

  /** The player's own turnover in [from, to). */
  own(playerId: number, from: number, to: number): { turnover_micro: number; bet_count: number } {
    return this.ownTurnover.get({ player: playerId, from, to }) ?? { turnover_micro: 0, bet_count: 0 }
  }

  /** The whole team's turnover in [from, to). */
  team(rootId: number, from: number, to: number): number {
    return this.teamTurnover.get({ root: rootId, from, to })?.turnover_micro ?? 0
  }

  /** Turnover in [from, to) of each team member that had any. */
  byMember(rootId: number, from: number, to: number): MemberTurnoverRow[] {
    return this.membersTurnover.all({ root: rootId, from, to })
  }

  /** Team members matching an exact id or part of a nickname, level then newest first. */
  search(rootId: number, f: SearchFilter): { rows: MemberRow[]; total: number } {
    const where: string[] = []
    const params: Record<string, string | number> = { root: rootId }
    const keyword = f.keyword?.trim()
    if (keyword) {
      params.like = `%${escapeLike(keyword)}%`
      if (/^\d{1,15}$/.test(keyword)) {
        params.id = Number(keyword)
        where.push(`(p.id = @id OR p.nickname LIKE @like ESCAPE '\\')`)
      } else where.push(`p.nickname LIKE @like ESCAPE '\\'`)
    }
    if (f.level !== undefined) {
      params.level = f.level
      where.push('t.level = @level')
    }
    const from = `FROM team t JOIN players p ON p.id = t.id ${where.length ? `WHERE ${where.join(' AND ')}` : ''}`
    const total = this.db.prepare(`${TEAM_CTE} SELECT COUNT(*) ${from}`).pluck().get(params) as number
    const rows = this.db
      .prepare(
        `${TEAM_CTE} SELECT p.id AS player_id, p.nickname, p.phone, t.level, p.inviter_id, p.created_at AS joined_at,
                (SELECT COUNT(*) FROM players c WHERE c.inviter_id = p.id) AS direct_count
         ${from} ORDER BY t.level, p.id DESC LIMIT @limit OFFSET @offset`,
      )
      .all({ ...params, limit: f.limit, offset: f.offset }) as MemberRow[]
    return { rows, total }
  }

  /** Turnover in [from, to) of the given players, by player. */
  turnoverOf(playerIds: readonly number[], from: number, to: number): Map<number, number> {
    const out = new Map<number, number>()
    if (playerIds.length === 0) return out
    const rows = this.db
      .prepare(
        `SELECT player_id, SUM(stake_micro) AS turnover_micro FROM bets
         WHERE player_id IN (${playerIds.map(() => '?').join(',')}) AND ${TURNOVER} AND draw_at >= ? AND draw_at < ?
         GROUP BY player_id`,
      )
      .all(...playerIds, from, to) as { player_id: number; turnover_micro: number }[]
    for (const r of rows) out.set(r.player_id, r.turnover_micro)
    return out
  }
}
