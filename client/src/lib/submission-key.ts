import { type ApiError, newIdempotencyKey } from './http'

/**
 * The one rule for submission keys, kept by every form that sends an `Idempotency-Key`
 * (docs/client.md#submission-keys):
 *
 * - a new key for each distinct attempt: a body different from the last one sent gets a new key;
 * - the same key only for a retry of the same request: the same body sent again after an answer
 *   that never arrived (timeout, lost connection, a server failure that stored nothing), so a
 *   retry moves money once;
 * - any answer the server did give — success or a refusal, which it stores with the key — ends
 *   the attempt, so a corrected attempt, or the same one tried again after a refusal, gets a new
 *   key and is never answered with the old refusal. "Still in progress" (HTTP 409) is no answer:
 *   the key is kept.
 *
 * Players never see the server's refusal of a reused key: the HTTP client words it as
 * "提交未完成，请重新提交", and the key is dropped like after any refusal.
 */
export class SubmissionKey {
  private current: { key: string; body: string } | null = null

  constructor(private readonly makeKey: () => string = newIdempotencyKey) {}

  /** The key for this body: the pending one when the body is the same, else a new one. */
  keyFor(body: unknown): string {
    const fingerprint = JSON.stringify(body)
    if (this.current?.body !== fingerprint) this.current = { key: this.makeKey(), body: fingerprint }
    return this.current.key
  }

  /** After a call: keep the key only when its outcome is unknown. */
  settle(error?: unknown): void {
    if (error !== undefined && outcomeUnknown(error)) return
    this.current = null
  }

  /** Sends one attempt of `body` with its key, and settles the key by the outcome. */
  async send<T>(body: unknown, call: (idempotencyKey: string) => Promise<T>): Promise<T> {
    const key = this.keyFor(body)
    try {
      const out = await call(key)
      this.settle()
      return out
    } catch (err) {
      this.settle(err)
      throw err
    }
  }
}

const UNKNOWN_OUTCOME: ReadonlySet<ApiError['kind']> = new Set([
  'timeout',
  'network',
  'http',
  'invalid-response',
])

function outcomeUnknown(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('kind' in error)) return true
  // "相同的请求正在处理中" (HTTP 409): the first call with this key is still running.
  const details = 'details' in error ? (error.details as ApiError['details'] | undefined) : undefined
  if (details?.status === 409) return true
  return typeof error.kind === 'string' && UNKNOWN_OUTCOME.has(error.kind as ApiError['kind'])
}
