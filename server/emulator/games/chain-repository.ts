import { type Db, immediate } from '@server/db/database'

/** The committed chain as kept: its seed, length, terminal hash and where it starts. */
export interface ChainRow {
  readonly seed: string
  readonly length: number
  readonly checkpoint_every: number
  readonly terminal: string
  readonly start_height: number
  readonly created_at: number
}

/** The `game_chain` row and its `game_chain_checkpoints` (every 1000th link); see ChainStore. */
export class ChainRepository {
  private readonly terminalNow
  private readonly row1
  private readonly checkpoint
  private readonly insertChain
  private readonly insertCheckpoint

  constructor(private readonly db: Db) {
    this.terminalNow = db.prepare<[], string>('SELECT terminal FROM game_chain WHERE id = 1').pluck()
    this.row1 = db.prepare<[], ChainRow>('SELECT * FROM game_chain WHERE id = 1')
    this.checkpoint = db
      .prepare<[number], string>('SELECT link FROM game_chain_checkpoints WHERE idx = ?')
      .pluck()
    this.insertChain = db.prepare<[ChainRow]>(
      `INSERT OR IGNORE INTO game_chain (id, seed, length, checkpoint_every, terminal, start_height, created_at)
       VALUES (1, @seed, @length, @checkpoint_every, @terminal, @start_height, @created_at)`,
    )
    this.insertCheckpoint = db.prepare<[number, string]>(
      'INSERT INTO game_chain_checkpoints (idx, link) VALUES (?, ?)',
    )
  }

  /** The kept chain's terminal hash, or undefined when there is none. */
  terminal(): string | undefined {
    return this.terminalNow.get()
  }

  chain(): ChainRow | undefined {
    return this.row1.get()
  }

  /** The link kept at `index` (a multiple of the chain's `checkpoint_every`). */
  checkpointAt(index: number): string | undefined {
    return this.checkpoint.get(index)
  }

  /**
   * Keeps a chain and its checkpoints, in one transaction, unless one is kept already (another
   * process may have made one meanwhile: the first one stays). Returns whether this one was kept.
   */
  keep(row: ChainRow, checkpoints: readonly (readonly [number, string])[]): boolean {
    return immediate(this.db, () => {
      if (this.insertChain.run(row).changes === 0) return false
      for (const [i, link] of checkpoints) this.insertCheckpoint.run(i, link)
      return true
    })
  }
}
