import { type ApiError, newIdempotencyKey } from '@client/lib/http'

/**
 * One Idempotency-Key per submission of a money-moving form. The same body sent again after an
 * answer that never arrived (timeout, lost connection, a server failure that stored nothing)
 * reuses the key, so a retry moves money once. Any answer the server did give — success or a
 * refusal, which it stores with the key — ends the submission, so the next one gets a new key.
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
}

const UNKNOWN_OUTCOME: ReadonlySet<ApiError['kind']> = new Set([
  'timeout',
  'network',
  'http',
  'invalid-response',
])

function outcomeUnknown(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('kind' in error)) return true
  return typeof error.kind === 'string' && UNKNOWN_OUTCOME.has(error.kind as ApiError['kind'])
}
