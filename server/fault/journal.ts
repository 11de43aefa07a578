import { hash } from 'node:crypto'
import type { FieldTest, JournalEntry, JournalFilter } from '@shared/emu-control'
import { journalFilterSchema } from '@shared/emu-control'
import { globToRegExp } from './glob'
import {
  bodyFields,
  type FieldCheck,
  type Fields,
  fieldChecks,
  headerFields,
  parseFieldTest,
} from './request-fields'

type Headers = Record<string, string | string[] | number | undefined>

/** A journal entry as kept: the public fields, the key its scope is matched by, and the raw details. */
export interface JournalRecord extends Omit<JournalEntry, 'request' | 'response'> {
  /** The x-emu-scope value, or the hash of the session token; never the token itself. */
  scopeKey: string | null
  /** The request's headers and body as they came; shown only redacted, and dropped to stay in budget. */
  reqHeaders: Headers | null
  reqBody: Buffer | null
  reqBodyBytes: number
  resHeaders: Headers | null
  /** The answer as it was sent (text or bytes), or its first BODY_KEEP bytes. */
  resBody: string | Buffer | null
  resBodyBytes: number
  /**
   * The answer whose envelope `code` is still to be read. The code is read when the journal is
   * read (or before the answer is dropped to stay in budget), not while the request is answered.
   */
  unreadCode: string | Buffer | null
  /** Bytes of details this entry holds, counted against the journal's budget. */
  detailBytes: number
}

type Filter = ReturnType<typeof journalFilterSchema.parse>

/** Names of query parameters, headers and body fields whose values are secrets. */
const SECRET_PARAM = /token|pass|secret|pwd|authorization|cookie/i
const REDACTED = '[redacted]'

/** Of each body, the bytes kept (for showing and for body-field filters). */
export const BODY_KEEP = 16 * 1024
/** Of each body, the characters shown in an entry. */
export const BODY_SHOW = 4 * 1024
/** Bytes of headers and bodies the whole journal keeps; past it the oldest entries lose theirs. */
export const DETAIL_BUDGET = 8 * 1024 * 1024
/** Answers longer than this are not read for an envelope code. */
export const ENVELOPE_READ_LIMIT = 64 * 1024
/** What one request's headers count for against the budget. */
const HEADERS_COST = 1024

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
 * What was called, which rule fired, the answer's code and how long it took, with the request's
 * and the answer's headers and bodies: a ring buffer, so it stays the same size however long the
 * server runs, and a byte budget for the details, so large bodies cannot make it grow either.
 * Entries are written when a request arrives and completed when its connection is done with it.
 */
export class Journal {
  private readonly ring: (JournalRecord | undefined)[]
  private next = 0
  private lastSeq = 0
  /** Entries at or below this sequence number are hidden (a global reset). */
  private clearedUpTo = 0
  /** The same, per scope key (a scoped reset). */
  private readonly clearedScopes = new Map<string, number>()
  private detailBytes = 0
  /**
   * How many of the oldest entries (from `next` on) are known to hold no details: entries lose
   * theirs oldest first, so keeping to the budget starts after them instead of at the oldest.
   */
  private bare = 0

  constructor(
    readonly capacity: number,
    private readonly budget: number = DETAIL_BUDGET,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('journal capacity must be ≥ 1')
    this.ring = new Array<JournalRecord | undefined>(capacity)
  }

  /** Starts an entry; the caller fills in the rest on the returned object as the request goes on. */
  open(fields: {
    at: number
    clock: number
    method: string
    url: string
    scope: string | null
    scopeKey: string | null
    headers?: Headers
  }): JournalRecord {
    const q = fields.url.indexOf('?')
    const entry: JournalRecord = {
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
      reqHeaders: fields.headers ?? null,
      reqBody: null,
      reqBodyBytes: 0,
      resHeaders: null,
      resBody: null,
      resBodyBytes: 0,
      unreadCode: null,
      detailBytes: fields.headers ? HEADERS_COST : 0,
    }
    const old = this.ring[this.next]
    if (old) this.detailBytes -= old.detailBytes
    // The oldest entry gives way to the newest, which is no longer among the oldest bare ones.
    if (this.bare > 0) this.bare--
    this.ring[this.next] = entry
    this.next = (this.next + 1) % this.capacity
    this.spend(entry.detailBytes)
    return entry
  }

  /** The request's body (the first BODY_KEEP bytes are kept) and its whole size. */
  setRequestBody(entry: JournalRecord, body: Buffer, bytes: number = body.length): void {
    if (entry.reqHeaders === null) return
    entry.reqBodyBytes = bytes
    entry.reqBody = body.length > BODY_KEEP ? body.subarray(0, BODY_KEEP) : body
    entry.detailBytes += entry.reqBody.length
    this.spend(entry.reqBody.length)
  }

  /**
   * The answer's headers (an object of its own, such as `reply.getHeaders()` returns), and its body
   * as it was sent, text or bytes (null when it was streamed or not read). `withCode`: the body is
   * an envelope whose code is read later, by `codeOf`.
   */
  setResponse(
    entry: JournalRecord,
    headers: Headers,
    body: string | Buffer | null,
    bodyBytes: number,
    withCode = false,
  ): void {
    if (withCode && body !== null && body.length <= ENVELOPE_READ_LIMIT) entry.unreadCode = body
    if (entry.reqHeaders === null) return
    entry.resHeaders = headers
    entry.resBody = body !== null && body.length > BODY_KEEP ? Buffer.from(body).subarray(0, BODY_KEEP) : body
    entry.resBodyBytes = bodyBytes
    const cost = HEADERS_COST + (entry.resBody?.length ?? 0)
    entry.detailBytes += cost
    this.spend(cost)
  }

  /**
   * Keeps the details within the budget, dropping the oldest entries' first (a request still in
   * flight keeps its own). Starts after the oldest entries already bare, so a journal that stays
   * at its budget does not walk the whole ring on every request.
   */
  private spend(bytes: number): void {
    this.detailBytes += bytes
    if (this.detailBytes <= this.budget) return
    let inFlight = false
    for (let i = this.bare; i < this.capacity && this.detailBytes > this.budget; i++) {
      const e = this.ring[(this.next + i) % this.capacity]
      if (e && e.detailBytes > 0) {
        if (e.outcome === 'pending') {
          inFlight = true
          continue
        }
        codeOf(e)
        this.detailBytes -= e.detailBytes
        e.detailBytes = 0
        e.reqHeaders = null
        e.reqBody = null
        e.resHeaders = null
        e.resBody = null
      }
      if (!inFlight) this.bare = i + 1
    }
  }

  /** Bytes of details kept now. */
  get detailSize(): number {
    return this.detailBytes
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

  private visible(e: JournalRecord): boolean {
    if (e.seq <= this.clearedUpTo) return false
    if (e.scopeKey === null) return true
    const cleared = this.clearedScopes.get(e.scopeKey)
    return cleared === undefined || e.seq > cleared
  }

  private matcher(f: Filter): (e: JournalRecord) => boolean {
    const keys = f.scope === undefined ? null : keysFor(f.scope)
    const pathRe = f.path === undefined ? null : globToRegExp(f.path)
    const query = fieldChecks(shortTests(f.query))
    const header = fieldChecks(shortTests(f.header), true)
    const body = fieldChecks(shortTests(f.body))
    const all = (checks: FieldCheck[], fields: () => Fields) => {
      if (checks.length === 0) return true
      const got = fields()
      return checks.every((c) => c(got))
    }
    return (e) =>
      (keys === null || (e.scopeKey !== null && keys.includes(e.scopeKey))) &&
      (f.method === undefined || e.method === f.method) &&
      (pathRe === null || pathRe.test(e.path)) &&
      (f.since === undefined || e.at >= f.since) &&
      (f.until === undefined || e.at <= f.until) &&
      (f.unmatched === undefined || f.unmatched === (e.fault === null)) &&
      (f.rule === undefined || e.fault?.ruleId === f.rule) &&
      (f.status === undefined || e.status === f.status) &&
      (f.code === undefined || codeOf(e) === f.code) &&
      (f.afterSeq === undefined || e.seq > f.afterSeq) &&
      all(query, () => redactFields(queryOf(e.url))) &&
      all(header, () => redactFields(headerFields(stringHeaders(e.reqHeaders ?? {})))) &&
      all(body, () => redactFields(bodyFields(e.reqBody ?? '', contentType(e.reqHeaders))))
  }
}

/** Field tests in either form, as a record. */
function shortTests(f: Filter['query']): Record<string, FieldTest> | undefined {
  if (f === undefined) return undefined
  if (typeof f === 'string') return Object.fromEntries([parseFieldTest(f)])
  if (Array.isArray(f)) return Object.fromEntries(f.map(parseFieldTest))
  return f
}

/** The query of a (redacted) url, by name. */
function queryOf(url: string): Map<string, string[]> {
  const map = new Map<string, string[]>()
  const q = url.indexOf('?')
  if (q < 0) return map
  for (const [k, v] of new URLSearchParams(url.slice(q + 1))) {
    const list = map.get(k)
    if (list) list.push(v)
    else map.set(k, [v])
  }
  return map
}

/** Secret fields keep their name, so they can be tested for presence, but never their value. */
function redactFields(fields: Fields): Fields {
  const out = new Map<string, readonly string[]>()
  for (const [k, v] of fields) out.set(k, SECRET_PARAM.test(k) ? v.map(() => REDACTED) : v)
  return out
}

function stringHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue
    const text = Array.isArray(v) ? v.join(', ') : String(v)
    out[k.toLowerCase()] = SECRET_PARAM.test(k)
      ? REDACTED
      : text.length > 512
        ? `${text.slice(0, 512)}…`
        : text
  }
  return out
}

const contentType = (headers: Headers | null): string | undefined => {
  const v = headers?.['content-type']
  return typeof v === 'string' ? v : undefined
}

/** A body as shown: secrets replaced by their kind (JSON keys, form fields, multipart parts), then cut short. */
export function redactBody(body: string | Buffer, type: string | undefined): { text: string; cut: boolean } {
  let text = typeof body === 'string' ? body : body.toString('utf8')
  const t = (type ?? '').toLowerCase()
  if (t.includes('json')) {
    try {
      text = JSON.stringify(redactJson(JSON.parse(text)))
    } catch {
      // Cut short or not JSON: redact "key": "value" pairs in place.
      text = text.replace(
        /("(?:[^"\\]*(?:token|pass|secret|pwd)[^"\\]*)"\s*:\s*)("(?:[^"\\]|\\.)*"?|[^,}\s]+)/gi,
        `$1"${REDACTED}"`,
      )
    }
  } else if (t.includes('x-www-form-urlencoded')) {
    const params = new URLSearchParams(text)
    for (const key of [...params.keys()]) if (SECRET_PARAM.test(key)) params.set(key, REDACTED)
    text = params.toString()
  } else if (t.includes('multipart/form-data')) {
    text = text.replace(
      /(name="[^"]*(?:token|pass|secret|pwd)[^"]*"[^\r\n]*\r\n(?:[^\r\n]+\r\n)*\r\n)([^\r]*)/gi,
      `$1${REDACTED}`,
    )
  }
  const cut = text.length > BODY_SHOW
  return { text: cut ? `${text.slice(0, BODY_SHOW)}…` : text, cut }
}

function redactJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactJson)
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, SECRET_PARAM.test(k) ? REDACTED : redactJson(v)]),
    )
  }
  return value
}

/** A scope given in a query may be an x-emu-scope value or a session token. */
const keysFor = (scope: string): string[] => [scope, tokenKey(scope)]

function message(
  headers: Headers | null,
  body: string | Buffer | null,
  bytes: number,
): JournalEntry['response'] {
  if (headers === null) return null
  const shown = body && body.length > 0 ? redactBody(body, contentType(headers)) : null
  // Text is kept whole; bytes may be the first BODY_KEEP of a longer body.
  const kept = typeof body === 'string' ? bytes : (body?.length ?? 0)
  return {
    headers: stringHeaders(headers),
    body: shown?.text ?? null,
    bodyBytes: bytes,
    truncated: (shown?.cut ?? false) || (body !== null && kept < bytes),
  }
}

/** The `code` of an envelope, or null when the body is not one. */
export function envelopeCode(body: string | Buffer): number | null {
  if (body.length === 0 || body.length > ENVELOPE_READ_LIMIT) return null
  const text = typeof body === 'string' ? body : body.toString('utf8')
  try {
    const parsed: unknown = JSON.parse(text)
    if (parsed && typeof parsed === 'object' && 'code' in parsed && typeof parsed.code === 'number') {
      return Number.isInteger(parsed.code) ? parsed.code : null
    }
  } catch {
    // Not JSON: no code to record.
  }
  return null
}

/** The entry's envelope code, read from its answer the first time it is asked for. */
export function codeOf(e: JournalRecord): number | null {
  if (e.unreadCode !== null) {
    e.code = envelopeCode(e.unreadCode)
    e.unreadCode = null
  }
  return e.code
}

function publicEntry(e: JournalRecord): JournalEntry {
  const {
    scopeKey: _hidden,
    reqHeaders,
    reqBody,
    reqBodyBytes,
    resHeaders,
    resBody,
    resBodyBytes,
    unreadCode: _unread,
    detailBytes: _bytes,
    ...rest
  } = e
  rest.code = codeOf(e)
  const request = message(reqHeaders, reqBody, reqBodyBytes)
  if (rest.stream) rest.stream = { ...rest.stream, recent: rest.stream.recent.map((e) => ({ ...e })) }
  return {
    ...rest,
    fault: rest.fault ? { ...rest.fault } : null,
    request: request ? { ...request, query: Object.fromEntries(queryOf(e.url)) } : null,
    response: message(resHeaders, resBody, resBodyBytes),
  }
}
