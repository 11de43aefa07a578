import { randomBytes } from 'node:crypto'
import type { Db } from '@server/db/database'
import { ReadCache } from '@server/db/read-cache'
import { hashToken } from './session-token'

export interface SessionRow {
  token_hash: string
  player_id: number
  created_at: number
  expires_at: number
  ended_at: number | null
}

/** How long a looked-up session is trusted without asking SQLite again (wall time, not emulator time). */
const CACHE_MS = 2_000

export class SessionRepository {
  /**
   * Sessions looked up in the last moments, by raw token: the hot path then neither hashes nor
   * queries. Whatever this process changes (logout, password change, a tester's expire, a reset)
   * drops the entries at once; the short lifetime bounds what another process could change.
   */
  private readonly cache = new ReadCache<string, SessionRow>(CACHE_MS)
  private readonly insert
  private readonly byHash
  private readonly end
  private readonly endForPlayer
  private readonly endEveryForPlayer
  private readonly issued

  /** `ended`: told of each player some of whose sessions were just ended (the push channel closes their streams). */
  constructor(
    db: Db,
    private readonly ended: (playerId: number) => void = () => undefined,
  ) {
    this.insert = db.prepare(
      'INSERT INTO sessions (token_hash, player_id, created_at, expires_at) VALUES (?, ?, ?, ?)',
    )
    this.byHash = db.prepare<[string], SessionRow>('SELECT * FROM sessions WHERE token_hash = ?')
    this.issued = db.prepare<[string], { one: number }>('SELECT 1 AS one FROM sessions WHERE token_hash = ?')
    this.end = db.prepare('UPDATE sessions SET ended_at = ? WHERE token_hash = ? AND ended_at IS NULL')
    this.endForPlayer = db.prepare(
      'UPDATE sessions SET ended_at = ? WHERE player_id = ? AND ended_at IS NULL AND token_hash != ?',
    )
    this.endEveryForPlayer = db.prepare(
      'UPDATE sessions SET ended_at = ? WHERE player_id = ? AND ended_at IS NULL',
    )
  }

  /** A new 128-bit random token. */
  create(playerId: number, now: number, ttlMs: number): { token: string; expiresAt: number } {
    const token = randomBytes(16).toString('hex')
    const expiresAt = now + ttlMs
    this.insert.run(hashToken(token), playerId, now, expiresAt)
    return { token, expiresAt }
  }

  /** The live session for a token, or undefined when unknown, ended or expired at `now`. */
  live(token: string, now: number): SessionRow | undefined {
    const wall = Date.now()
    let row = this.cache.get(token, wall)
    if (!row) {
      row = this.byHash.get(hashToken(token))
      if (row && row.ended_at === null) this.cache.set(token, row, wall)
      else this.cache.delete(token)
    }
    if (!row || row.ended_at !== null || row.expires_at <= now) return undefined
    return row
  }

  /**
   * What became of a session, read from the database (not the cache): live, ended (logout, password
   * change, a tester's revoke), expired at `now`, or never issued.
   */
  stateOf(token: string, now: number): 'live' | 'ended' | 'expired' | 'unknown' {
    const row = this.byHash.get(hashToken(token))
    if (!row) return 'unknown'
    if (row.ended_at !== null) return 'ended'
    return row.expires_at <= now ? 'expired' : 'live'
  }

  /** Whether this token was ever issued here, live or not. */
  wasIssued(token: string): boolean {
    return this.issued.get(hashToken(token)) !== undefined
  }

  /** Forgets every cached session (after the data was reset underneath). */
  clearCache(): void {
    this.cache.clear()
  }

  endToken(token: string, now: number): boolean {
    this.cache.delete(token)
    const tokenHash = hashToken(token)
    if (this.end.run(now, tokenHash).changes === 0) return false
    const row = this.byHash.get(tokenHash)
    if (row) this.ended(row.player_id)
    return true
  }

  /** Ends every other session of a player (after a password change). */
  endOthers(playerId: number, keepToken: string, now: number): number {
    this.cache.deleteWhere((row, token) => row.player_id === playerId && token !== keepToken)
    const changes = this.endForPlayer.run(now, playerId, hashToken(keepToken)).changes
    if (changes > 0) this.ended(playerId)
    return changes
  }

  /** Ends every session of a player (a time-out or self-exclusion). */
  endAll(playerId: number, now: number): number {
    this.cache.deleteWhere((row) => row.player_id === playerId)
    const changes = this.endEveryForPlayer.run(now, playerId).changes
    if (changes > 0) this.ended(playerId)
    return changes
  }
}
