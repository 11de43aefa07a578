import { IDEMPOTENCY_HEADER, SCOPE_HEADER, TOKEN_HEADER } from '@shared/constants'
import type { BodyOf, DataOf, Endpoint, QueryOf } from '@shared/contract/endpoint'
import { encodeBody, pathWithQuery } from '@shared/contract/request'
import { envelopeMessage, isSuccessCode, looseEnvelopeSchema } from '@shared/envelope'

/** The server under test, started by global-setup.ts. */
export function baseUrl(): string {
  const base = process.env.E2E_BASE_URL
  if (!base) throw new Error('E2E_BASE_URL is not set: the global setup did not run')
  return base
}

/**
 * The browser tests' one way to call `/api` directly: a contract object from shared/, sent the
 * way the app sends it, its answer parsed with the contract's data schema. A refusal throws with
 * the envelope, so a setup step that fails says why.
 */
export async function api<E extends Endpoint>(
  endpoint: E,
  input: {
    query?: QueryOf<E>
    body?: BodyOf<E>
    token?: string
    scope?: string
    idempotencyKey?: string
    /** Another server than the one under test (a spec's own). */
    base?: string
  } = {},
): Promise<DataOf<E>> {
  const headers = new Headers({ accept: 'application/json' })
  if (input.token) headers.set(TOKEN_HEADER, input.token)
  if (input.scope) headers.set(SCOPE_HEADER, input.scope)
  if (endpoint.idempotent) headers.set(IDEMPOTENCY_HEADER, input.idempotencyKey ?? crypto.randomUUID())
  const body = encodeBody(endpoint, input.body)
  if (typeof body === 'string') headers.set('content-type', 'application/json')
  const path = pathWithQuery(endpoint, input.query)
  const res = await fetch(`${input.base ?? baseUrl()}${path}`, { method: endpoint.method, headers, body })
  const envelope = looseEnvelopeSchema.parse(await res.json())
  if (!res.ok || !isSuccessCode(envelope.code)) {
    throw new Error(
      `${endpoint.method} ${path} answered ${res.status}: ${envelope.code} ${envelopeMessage(envelope) ?? ''}`,
    )
  }
  return endpoint.data.parse(envelope.data) as DataOf<E>
}
