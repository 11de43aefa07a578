/**
 * Rows read from SQLite on a hot path, trusted for a short wall-clock time. Whoever writes in this
 * process drops what it changed at once; the lifetime bounds what another process on the same
 * database file could change unseen. Bounded: when full it starts over empty.
 */
export class ReadCache<K, V> {
  private readonly entries = new Map<K, { value: V; until: number }>()

  constructor(
    private readonly lifetimeMs: number,
    private readonly limit = 10_000,
  ) {}

  /** The value read before, while it is still trusted at `wall`. */
  get(key: K, wall: number): V | undefined {
    const entry = this.entries.get(key)
    return entry && entry.until > wall ? entry.value : undefined
  }

  set(key: K, value: V, wall: number): void {
    if (this.entries.size >= this.limit) this.entries.clear()
    this.entries.set(key, { value, until: wall + this.lifetimeMs })
  }

  delete(key: K): void {
    this.entries.delete(key)
  }

  /** Drops the entries the predicate picks. */
  deleteWhere(pick: (value: V, key: K) => boolean): void {
    for (const [key, { value }] of this.entries) if (pick(value, key)) this.entries.delete(key)
  }

  clear(): void {
    this.entries.clear()
  }
}
