import { AsyncLocalStorage } from 'node:async_hooks'
import { hash } from 'node:crypto'
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_PATTERN } from '@shared/constants'
import { CODE } from '@shared/envelope'
import type { FastifyReply } from 'fastify'
import { type Db, immediate } from '../db/database'
import { commitGrouped } from '../db/group-commit'
import type { EmuClock } from '../emulator/clock'
import { ApiError, invalidInput } from './api-error'
import { failure, ok } from './envelope'
import { idempotencyRepository, type IdempotencyRow as Row } from './idempotency-repository'

/**
 * Idempotent calls: a replay returns the first answer and moves money once.
 *
 * How to use it: mark the endpoint `idempotent: true` in its contract; `contractRoute` does the rest.
 * The client sends an `Idempotency-Key` header (1–128 visible ASCII characters, e.g. a UUID) that
 * is new for each submission and reused only when it retries that same submission (a timeout, a
 * lost connection, a double tap). Then:
 *
 * - first call: the handler runs; its answer — success or a business refusal (an ApiError) — is
 *   stored with the key;
 * - the same key and the same body again, after or while the first runs, in this process or
 *   another on the same database: the stored answer comes back (header `Idempotent-Replayed: true`)
 *   and the handler does not run again;
 * - the same key with a different body (or on another endpoint): refused, HTTP 422, code 40900;
 * - the first call still running after `waitMs`: refused, HTTP 409, code 40900 (retry later);
 * - an unexpected failure (a bug, HTTP 500) stores nothing, so the call can be retried.
 *
 * An endpoint whose handler is synchronous and does all its work in the database can be registered
 * `atomic` (see contractRoute): then the key, the handler's writes and the stored answer commit in
 * one transaction, so nothing is ever left "in progress".
 *
 * An asynchronous handler (one that checks a password hash first) stores its answer with the
 * writes that make it, in the same transaction, by calling `recordAnswer` there; its endpoint is
 * named in `answersWithWrites`. A key of such an endpoint still "in progress" when the server
 * starts was never written for (its answer would be there): it is forgotten, so a retry runs.
 * Keys of other endpoints left "in progress" by a process that died mid-call stay so, and a replay
 * is refused rather than run twice. (Start-up resolution assumes one server per database file, as
 * `server/main.ts` runs it.)
 *
 * Keys are scoped per player (the session's; 0 without one) and kept for `retentionMs` of the
 * emulator's world clock. Calls without the header run as usual.
 */
export interface IdempotencyOptions {
  /** How long a key is remembered, on the emulator clock. */
  readonly retentionMs: number
  /** How often expired keys are swept, on the emulator clock. */
  readonly sweepMs: number
  /**
   * How long a replay waits for a first call still running in another process, in real time (on
   * `realNow`), looking at its row every `pollMs` (paused with `sleep`).
   */
  readonly waitMs: number
  readonly pollMs: number
  /**
   * The real time the wait is measured on; `Date.now` unless a test holds it. Not the emulator's
   * clock: a tester who freezes the world must not make a replay wait for ever on a first call
   * whose process died.
   */
  readonly realNow?: () => number
  /** The pause between two looks at the row; a real timer unless a test holds it. */
  readonly sleep?: (ms: number) => Promise<void>
}

export const IDEMPOTENCY_DEFAULTS: IdempotencyOptions = {
  retentionMs: 24 * 3_600_000,
  sweepMs: 60_000,
  waitMs: 10_000,
  pollMs: 20,
}

export const IDEMPOTENCY_MSG = {
  badKey: `${IDEMPOTENCY_HEADER} 格式不正确：应为 1–128 个可见 ASCII 字符`,
  mismatch: '该 Idempotency-Key 已用于另一个不同的请求，请为新的请求使用新的 Key',
  inProgress: '相同的请求正在处理中，请稍后查看结果',
} as const

export const REPLAYED_HEADER = 'idempotent-replayed'

const JSON_TYPE = 'application/json; charset=utf-8'

const KEY_RE = IDEMPOTENCY_KEY_PATTERN

export interface IdempotentCall {
  readonly playerId: number | null
  readonly key: string
  /** The endpoint id; part of the fingerprint, so a key can't be reused on another endpoint. */
  readonly endpointId: string
  /** The parsed body (after validation). */
  readonly body: unknown
}

/** JSON with object keys sorted, so equal bodies give equal fingerprints whatever their field order. */
function stableJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  if (Array.isArray(value)) {
    let out = '['
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + stableJson(value[i])
    return `${out}]`
  }
  const record = value as Record<string, unknown>
  let out = '{'
  for (const key of Object.keys(record).sort()) {
    const v = record[key]
    if (v === undefined) continue
    out += `${out.length === 1 ? '' : ','}${JSON.stringify(key)}:${stableJson(v)}`
  }
  return `${out}}`
}

export const fingerprintOf = (endpointId: string, body: unknown): string =>
  hash('sha256', `${endpointId}\n${stableJson(body ?? null)}`, 'hex')

const isThenable = (v: unknown): boolean =>
  v !== null && typeof v === 'object' && typeof (v as { then?: unknown }).then === 'function'

/** The idempotent call the running handler belongs to, for `recordAnswer`. */
const currentCall = new AsyncLocalStorage<{ readonly player: number; readonly key: string }>()

/**
 * Stores `data` (sent as the success envelope) as the answer of the idempotent call being handled,
 * if any. Call it inside the transaction that makes the answer true, so the writes and the answer
 * commit together: a process dying after that commit leaves a key that replays, not one "in
 * progress".
 */
export function recordAnswer(db: Db, data: unknown): void {
  const call = currentCall.getStore()
  if (!call) return
  idempotencyRepository(db).answerPending(call.player, call.key, JSON.stringify(ok(data)))
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

export class IdempotencyStore {
  /** First calls running in this process, so a concurrent replay here waits without polling. */
  private readonly inflight = new Map<string, Promise<void>>()
  private readonly keys
  /** When expired keys were last swept (emulator clock). */
  private sweptAt = Number.NEGATIVE_INFINITY

  constructor(
    private readonly db: Db,
    private readonly clock: EmuClock,
    private readonly options: IdempotencyOptions = IDEMPOTENCY_DEFAULTS,
    /** Endpoints whose handlers call `recordAnswer` with their writes. */
    answersWithWrites: readonly string[] = [],
  ) {
    this.keys = idempotencyRepository(db)
    this.resolveInterrupted(answersWithWrites)
  }

  /**
   * At start-up: a key still "in progress" whose endpoint stores its answer with its writes had
   * nothing written for it, so it is forgotten and a retry runs. Returns how many were.
   */
  resolveInterrupted(endpoints: readonly string[]): number {
    if (endpoints.length === 0) return 0
    return immediate(this.db, () => this.keys.forgetPendingOf(endpoints))
  }

  /**
   * Runs `execute` once per (player, key): returns its answer, or the stored one on a replay.
   * `execute` returns the success envelope, or throws an ApiError (stored and rethrown).
   */
  async run<T>(call: IdempotentCall, reply: FastifyReply, execute: () => Promise<T>): Promise<T | unknown> {
    if (!KEY_RE.test(call.key)) throw invalidInput(IDEMPOTENCY_MSG.badKey)
    const player = call.playerId ?? 0
    const fingerprint = fingerprintOf(call.endpointId, call.body)
    const claimed = immediate(this.db, () => {
      const now = this.clock.worldNow()
      this.sweep(now)
      const row = this.keys.find(player, call.key)
      if (row) return row
      this.keys.claim(player, call.key, fingerprint, now, call.endpointId)
      return null
    })

    if (claimed) return this.answerFrom(claimed, player, call.key, fingerprint, reply)

    const slot = `${player}\n${call.key}`
    let release = () => {}
    this.inflight.set(slot, new Promise<void>((resolve) => (release = resolve)))
    try {
      const answer = await currentCall.run({ player, key: call.key }, execute)
      this.store(player, call.key, 200, answer)
      return answer
    } catch (err) {
      if (err instanceof ApiError)
        this.store(player, call.key, err.statusCode, failure(err.code, err.message))
      else immediate(this.db, () => this.keys.forget(player, call.key))
      throw err
    } finally {
      this.inflight.delete(slot)
      release()
    }
  }

  /**
   * The same for a synchronous handler that does all its work in the database: the key, the
   * handler's writes and the answer commit together, in one transaction.
   */
  async runAtomic<T>(call: IdempotentCall, reply: FastifyReply, execute: () => T): Promise<T | unknown> {
    if (!KEY_RE.test(call.key)) throw invalidInput(IDEMPOTENCY_MSG.badKey)
    const player = call.playerId ?? 0
    const fingerprint = fingerprintOf(call.endpointId, call.body)
    // Calls arriving together share one commit (see commitGrouped).
    const outcome = await commitGrouped(
      this.db,
      (): { first: Row } | { json: string } | { refused: ApiError } => {
        const now = this.clock.worldNow()
        this.sweep(now)
        const first = this.keys.find(player, call.key)
        if (first) return { first }
        const keep = (status: number, json: string) =>
          this.keys.claimAnswered(player, call.key, fingerprint, status, json, now, call.endpointId)
        try {
          // In a savepoint of its own: a refusal undoes the handler's writes and keeps the key.
          const answer = immediate(this.db, () => {
            const out = execute()
            if (isThenable(out)) throw new TypeError('an atomic idempotent handler must be synchronous')
            return out
          })
          // Serialized once: the stored text is also what is sent.
          const json = JSON.stringify(answer)
          keep(200, json)
          return { json }
        } catch (err) {
          // A business refusal is an answer like any other; anything else undoes the whole call.
          if (!(err instanceof ApiError)) throw err
          keep(err.statusCode, JSON.stringify(failure(err.code, err.message)))
          return { refused: err }
        }
      },
    )
    if ('first' in outcome) return this.answerFrom(outcome.first, player, call.key, fingerprint, reply)
    if ('refused' in outcome) throw outcome.refused
    reply.type(JSON_TYPE)
    return outcome.json
  }

  /** Forgets expired keys, at most once per `sweepMs`; runs inside the caller's transaction. */
  private sweep(now: number): void {
    if (now >= this.sweptAt && now - this.sweptAt < this.options.sweepMs) return
    this.keys.expireBefore(now - this.options.retentionMs)
    this.sweptAt = now
  }

  private store(player: number, key: string, status: number, body: unknown): void {
    immediate(this.db, () => this.keys.answer(player, key, status, JSON.stringify(body)))
  }

  private async answerFrom(
    first: Row,
    player: number,
    key: string,
    fingerprint: string,
    reply: FastifyReply,
  ): Promise<unknown> {
    if (first.fingerprint !== fingerprint) throw new ApiError(CODE.conflict, IDEMPOTENCY_MSG.mismatch, 422)
    let row: Row | undefined = first
    if (row.state === 'pending') row = await this.waitForFirst(player, key)
    if (!row) {
      // The first call failed unexpectedly and released the key: nothing was stored to replay.
      throw new ApiError(CODE.conflict, IDEMPOTENCY_MSG.inProgress, 409)
    }
    if (row.state !== 'done' || row.response === null)
      throw new ApiError(CODE.conflict, IDEMPOTENCY_MSG.inProgress, 409)
    // The stored text goes out as it is: the first answer, byte for byte.
    reply
      .code(row.status_code ?? 200)
      .header(REPLAYED_HEADER, 'true')
      .type(JSON_TYPE)
    return row.response
  }

  private async waitForFirst(player: number, key: string): Promise<Row | undefined> {
    const local = this.inflight.get(`${player}\n${key}`)
    if (local) {
      await local
      return this.keys.find(player, key)
    }
    // Running in another process on the same database: watch the row.
    const { realNow = Date.now, sleep = sleepFor } = this.options
    const deadline = realNow() + this.options.waitMs
    for (;;) {
      const row = this.keys.find(player, key)
      if (!row || row.state === 'done' || realNow() >= deadline) return row
      await sleep(this.options.pollMs)
    }
  }
}
