import { randomBytes } from 'node:crypto'
import type { Db } from '@server/db/database'
import { blockHashSync, linkIndexForBlock, walkChainSync } from '@shared/games/chain'
import { ChainRepository, type ChainRow } from './chain-repository'
import { nodeHasher } from './node-hasher'

const CHECKPOINT_EVERY = 1000
const SEGMENTS_CACHED = 16

/**
 * The committed chain c(i+1) = sha256(hex(c(i))), i = 0…N (docs/game-rules.md, "The chain"). Made once (N hashes),
 * then kept as its seed, its terminal hash and every 1000th link, so finding any key walks at most
 * 999 hashes; the links of recently used segments are cached, since blocks go through them in order.
 */
export class ChainStore {
  private row: ChainRow | null = null
  /** Recently used segments of links, by their first index (newest last). */
  private readonly segments = new Map<number, string[]>()

  private readonly rows

  constructor(
    db: Db,
    private readonly length: number,
  ) {
    this.rows = new ChainRepository(db)
  }

  /** The chain, or null before it is made. */
  get(): ChainRow | null {
    if (this.row) {
      // A reset empties the tables: notice it and forget the cache.
      const still = this.rows.terminal()
      if (still === this.row.terminal) return this.row
      this.row = null
      this.segments.clear()
    }
    this.row = this.rows.chain() ?? null
    return this.row
  }

  /**
   * The chain, made now if there is none. Its start is read from `startAt` once every link is
   * made, so block 1 (the height after the start) always draws after the commitment exists.
   */
  ensure(startAt: () => { height: number; now: number }): ChainRow {
    const have = this.get()
    if (have) return have
    const seed = randomBytes(32).toString('hex')
    const checkpoints: [number, string][] = []
    let c = seed
    for (let i = 0; i < this.length; i++) {
      if (i % CHECKPOINT_EVERY === 0) checkpoints.push([i, c])
      c = nodeHasher.sha256Hex(c)
    }
    const start = startAt()
    const row: ChainRow = {
      seed,
      length: this.length,
      checkpoint_every: CHECKPOINT_EVERY,
      terminal: c,
      start_height: start.height,
      created_at: start.now,
    }
    // Another process may have made one meanwhile: the first one stays.
    this.rows.keep(row, checkpoints)
    this.row = null
    const made = this.get()
    if (!made) throw new Error('chain vanished after it was made')
    return made
  }

  /** c(index). */
  link(index: number): string {
    const chain = this.get()
    if (!chain) throw new Error('no chain yet')
    if (index < 0 || index > chain.length) throw new RangeError(`link ${index} outside the chain`)
    if (index === chain.length) return chain.terminal
    const every = chain.checkpoint_every
    const base = index - (index % every)
    let links = this.segments.get(base)
    if (links) this.segments.delete(base)
    else {
      const start = this.rows.checkpointAt(base)
      if (typeof start !== 'string') throw new Error(`chain checkpoint ${base} missing`)
      links = [start]
      for (let i = 1; i < every && base + i < chain.length; i++)
        links.push(nodeHasher.sha256Hex(links[i - 1] ?? ''))
      const oldest = this.segments.keys().next()
      if (this.segments.size >= SEGMENTS_CACHED && !oldest.done) this.segments.delete(oldest.value)
    }
    // Re-inserted last, so the map's first key is always the least recently used.
    this.segments.set(base, links)
    const link = links[index - base]
    if (link === undefined) throw new RangeError(`link ${index} not in its segment`)
    return link
  }

  /** Block number of a height (k = height − start), or null when the chain does not cover it. */
  blockNumber(height: number): number | null {
    const chain = this.get()
    if (!chain) return null
    const k = height - chain.start_height
    return k >= 1 && k <= chain.length ? k : null
  }

  /** The key of a height: c(N − k). */
  keyOf(height: number): string {
    const chain = this.get()
    const k = this.blockNumber(height)
    if (!chain || k === null) throw new RangeError(`height ${height} is outside the chain`)
    return this.link(linkIndexForBlock(chain.length, k))
  }

  blockHash(height: number): string {
    return blockHashSync(nodeHasher, height, this.keyOf(height))
  }

  /** Walks a key forward: used by tests and tools to check a proof. */
  static walk(key: string, steps: number): string {
    return walkChainSync(nodeHasher, key, steps)
  }
}
