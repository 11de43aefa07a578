import type { Db } from '@server/db/database'

export interface BetAddressRow {
  id: number
  player_id: number
  address: string
  label: string
  created_at: number
  updated_at: number
}

/** The wallet addresses players send transfer bets from. */
export class BetAddressRepository {
  constructor(private readonly db: Db) {}

  list(playerId: number): BetAddressRow[] {
    return this.db
      .prepare('SELECT * FROM bet_addresses WHERE player_id = ? ORDER BY id')
      .all(playerId) as BetAddressRow[]
  }

  count(playerId: number): number {
    return this.db
      .prepare('SELECT COUNT(*) FROM bet_addresses WHERE player_id = ?')
      .pluck()
      .get(playerId) as number
  }

  byAddress(address: string): BetAddressRow | undefined {
    return this.db.prepare('SELECT * FROM bet_addresses WHERE address = ?').get(address) as
      | BetAddressRow
      | undefined
  }

  byId(id: number): BetAddressRow | undefined {
    return this.db.prepare('SELECT * FROM bet_addresses WHERE id = ?').get(id) as BetAddressRow | undefined
  }

  insert(playerId: number, address: string, label: string, at: number): number {
    return Number(
      this.db
        .prepare(
          'INSERT INTO bet_addresses (player_id, address, label, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
        )
        .run(playerId, address, label, at, at).lastInsertRowid,
    )
  }

  update(id: number, address: string, label: string, at: number): void {
    this.db
      .prepare('UPDATE bet_addresses SET address = ?, label = ?, updated_at = ? WHERE id = ?')
      .run(address, label, at, id)
  }

  remove(id: number): void {
    this.db.prepare('DELETE FROM bet_addresses WHERE id = ?').run(id)
  }
}
