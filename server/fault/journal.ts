import { hash } from 'node:crypto'
import type { JournalEntry, JournalFilter } from '../../shared/emu-control'
import { journalFilterSchema } from '../../shared/emu-control'
import { globToRegExp } from './glob'

/** A journal entry as kept: the public fields plus the key its scope is matched by. */
interface Kept extends JournalEntry {
  /** The x-emu-scope value, or the hash of the session token; never the token itself. */
  scopeKey: string | null
}

type Filter = ReturnType<typeof journalFilterSchema.parse>

const SECRET_PARAM = /token|pass|secret|pwd/i

/** Recently seen tokens' keys: a session makes many calls, and hashing each one costs throughput. */
const recentKeys = new Map<string, string>()
const RECENT_KEYS_LIMIT = 10_000

/** Short hash of a session token: enough to tell tokens apart and match a query, useless as a token. */
export function tokenKey(token: string): string {
  let key = recentKeys.get(token)
  if (key === undefined) {
    key = `token:${hash('sha256', token, 'hex').slice(0, 16)}`
    if (recentKeys.size >= RECENT_KEYS_LIMIT) recentKeys.clear()
    recentKeys.set(token, key)
  }
  return key
}

/** Path and query with the values of secret-looking query parameters replaced. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?')
  if (q < 0 || !SECRET_PARAM.test(url.slice(q))) return url
  const params = new URLSearchParams(url.slice(q + 1))
  for (const key of [...params.keys()]) if (SECRET_PARAM.test(key)) params.set(key, '[redacted]')
  return `${url.slice(0, q)}?${params.toString()}`
}

/**
 * What was called, which rule fired, the answer's code and how long it took: a ring buffer, so
 * it stays the same size however long the server runs. Entries are written when a request
 * arrives and completed when its connection is done with it.
 */
export class Journal {
  private readonly ring: (Kept | undefined)[]
  private next = 0
  private lastSeq = 0
  /** Entries at or below this sequence number are hidden (a global reset). */
  private clearedUpTo = 0
  /** The same, per scope key (a scoped reset). */
  private readonly clearedScopes = new Map<string, number>()

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('journal capacity must be ≥ 1')
    this.ring = new Array<Kept | undefined>(capacity)
  }

  /** Starts an entry; the caller fills in the rest on the returned object as the request goes on. */
  open(fields: {
    at: number
    clock: number
    method: string
    url: string
    scope: string | null
    scopeKey: string | null
  }): JournalEntry {
    const q = fields.url.indexOf('?')
    const entry: Kept = {
      seq: ++this.lastSeq,
      at: fields.at,
      clock: fields.clock,
      method: fields.method,
      url: redactUrl(fields.url),
      path: q < 0 ? fields.url : fields.url.slice(0, q),
      scope: fields.scope,
      scopeKey: fields.scopeKey,
      status: null,
      code: null,
      fault: null,
      outcome: 'pending',
      durationMs: null,
    }
    this.ring[this.next] = entry
    this.next = (this.next + 1) % this.capacity
    return entry
  }

  get size(): number {
    let n = 0
    for (const e of this.ring) if (e && this.visible(e)) n++
    return n
  }

  get newestSeq(): number {
    return this.lastSeq
  }

  /** Forgets every entry, or one scope's (given as the x-emu-scope value or a token). */
  clear(scope?: string): void {
    if (scope === undefined) {
      this.clearedUpTo = this.lastSeq
      this.clearedScopes.clear()
      return
    }
    for (const key of keysFor(scope)) this.clearedScopes.set(key, this.lastSeq)
  }

  /** The newest matching entries, up to limit, oldest first. */
  query(filter: JournalFilter, limit = 200): JournalEntry[] {
    const test = this.matcher(journalFilterSchema.parse(filter))
    const out: JournalEntry[] = []
    for (let i = 1; i <= this.capacity && out.length < limit; i++) {
      const e = this.ring[(this.next - i + this.capacity) % this.capacity]
      if (!e || e.seq <= this.clearedUpTo) break
      if (this.visible(e) && test(e)) out.push(publicEntry(e))
    }
    return out.reverse()
  }

  count(filter: JournalFilter): number {
    const test = this.matcher(journalFilterSchema.parse(filter))
    let n = 0
    for (const e of this.ring) if (e && this.visible(e) && test(e)) n++
    return n
  }

  private visible(e: Kept): boolean {
    if (e.seq <= this.clearedUpTo) return false
    if (e.scopeKey === null) return true
    const cleared = this.clearedScopes.get(e.scopeKey)
    return cleared === undefined || e.seq > cleared
  }

  private matcher(f: Filter): (e: Kept) => boolean {
    const keys = f.scope === undefined ? null : keysFor(f.scope)
    const pathRe = f.path === undefined ? null : globToRegExp(f.path)
    return (e) =>
      (keys === null || (e.scopeKey !== null && keys.includes(e.scopeKey))) &&
      (f.method === undefined || e.method === f.method) &&
      (pathRe === null || pathRe.test(e.path)) &&
      (f.since === undefined || e.at >= f.since) &&
      (f.until === undefined || e.at <= f.until) &&
      (f.unmatched === undefined || f.unmatched === (e.fault === null)) &&
      (f.rule === undefined || e.fault?.ruleId === f.rule) &&
      (f.status === undefined || e.status === f.status) &&
      (f.code === undefined || e.code === f.code) &&
      (f.afterSeq === undefined || e.seq > f.afterSeq)
  }
}

/** A scope given in a query may be an x-emu-scope value or a session token. */
const keysFor = (scope: string): string[] => [scope, tokenKey(scope)]

function publicEntry(e: Kept): JournalEntry {
  const { scopeKey: _hidden, ...rest } = e
  return { ...rest, fault: rest.fault ? { ...rest.fault } : null }
}
