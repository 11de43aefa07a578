import type { Db } from '../db/database'

/** A stored key: its call's fingerprint and, once answered, the answer as sent. */
export interface IdempotencyRow {
  fingerprint: string
  state: 'pending' | 'done'
  status_code: number | null
  response: string | null
}

/** The `idempotency_keys` table (see idempotency.ts for what a key means). */
export class IdempotencyRepository {
  private readonly select
  private readonly insert
  private readonly insertDone
  private readonly finishRow
  private readonly finishPending
  private readonly forgetRow
  private readonly expire

  constructor(private readonly db: Db) {
    this.select = db.prepare<[number, string], IdempotencyRow>(
      'SELECT fingerprint, state, status_code, response FROM idempotency_keys WHERE player_id = ? AND key = ?',
    )
    this.insert = db.prepare<[number, string, string, number, string]>(
      `INSERT INTO idempotency_keys (player_id, key, fingerprint, state, created_at, endpoint)
       VALUES (?, ?, ?, 'pending', ?, ?)`,
    )
    this.insertDone = db.prepare<[number, string, string, number, string, number, string]>(
      `INSERT INTO idempotency_keys (player_id, key, fingerprint, state, status_code, response, created_at, endpoint)
       VALUES (?, ?, ?, 'done', ?, ?, ?, ?)`,
    )
    this.finishRow = db.prepare<[number, string, number, string]>(
      `UPDATE idempotency_keys SET state = 'done', status_code = ?, response = ? WHERE player_id = ? AND key = ?`,
    )
    this.finishPending = db.prepare<[string, number, string]>(
      `UPDATE idempotency_keys SET state = 'done', status_code = 200, response = ?
       WHERE player_id = ? AND key = ? AND state = 'pending'`,
    )
    this.forgetRow = db.prepare<[number, string]>(
      `DELETE FROM idempotency_keys WHERE player_id = ? AND key = ? AND state = 'pending'`,
    )
    // Rows are in insertion order, so expired keys come first: the sweep deletes up to the first
    // row still within retention and reads nothing beyond it. (Should the emulator clock be set
    // back, a key stored before that stays until the keys after it expire too: kept longer, never
    // dropped early.)
    this.expire = db.prepare<[number]>(
      `DELETE FROM idempotency_keys WHERE id < coalesce(
         (SELECT id FROM idempotency_keys WHERE created_at >= ? ORDER BY id LIMIT 1),
         (SELECT max(id) + 1 FROM idempotency_keys))`,
    )
  }

  find(player: number, key: string): IdempotencyRow | undefined {
    return this.select.get(player, key)
  }

  /** Takes the key for a first call, "in progress". */
  claim(player: number, key: string, fingerprint: string, now: number, endpoint: string): void {
    this.insert.run(player, key, fingerprint, now, endpoint)
  }

  /** Takes the key with its answer at once (an atomic call). */
  claimAnswered(
    player: number,
    key: string,
    fingerprint: string,
    status: number,
    response: string,
    now: number,
    endpoint: string,
  ): void {
    this.insertDone.run(player, key, fingerprint, status, response, now, endpoint)
  }

  /** Stores the answer of a key. */
  answer(player: number, key: string, status: number, response: string): void {
    this.finishRow.run(status, response, player, key)
  }

  /** Stores a success answer for a key still "in progress". */
  answerPending(player: number, key: string, response: string): void {
    this.finishPending.run(response, player, key)
  }

  /** Lets a key "in progress" go, so the call can be retried. */
  forget(player: number, key: string): void {
    this.forgetRow.run(player, key)
  }

  /** Deletes the keys stored before `cutoff`. */
  expireBefore(cutoff: number): void {
    this.expire.run(cutoff)
  }

  /** Deletes the keys of these endpoints still "in progress"; returns how many. */
  forgetPendingOf(endpoints: readonly string[]): number {
    if (endpoints.length === 0) return 0
    const marks = endpoints.map(() => '?').join(', ')
    return this.db
      .prepare(`DELETE FROM idempotency_keys WHERE state = 'pending' AND endpoint IN (${marks})`)
      .run(...endpoints).changes
  }
}

const repositories = new WeakMap<Db, IdempotencyRepository>()

/** The one repository of a connection, its statements prepared once. */
export function idempotencyRepository(db: Db): IdempotencyRepository {
  let repo = repositories.get(db)
  if (!repo) {
    repo = new IdempotencyRepository(db)
    repositories.set(db, repo)
  }
  return repo
}
