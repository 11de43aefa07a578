import { ENDPOINTS } from '@shared/contract/registry'
import { failureEnvelopeSchema, successEnvelopeSchema } from '@shared/envelope'
import type { FastifyInstance, InjectOptions } from 'fastify'
import { z } from 'zod'

/** An answer as a test reads it. Reading `data` of a refusal fails the test. */
export interface Answer<T> {
  readonly code: number
  readonly msg: string
  readonly data: T
}

/**
 * Parses an answer with the endpoint's contract: a refusal (`{code, msg, data: null}`, any code but
 * a success) or the success envelope whose data the contract describes. Anything else throws.
 */
export function parseAnswer<T extends z.ZodType>(
  e: { readonly id: string; readonly data: T },
  body: unknown,
): Answer<z.output<T>> {
  const refusal = failureEnvelopeSchema.safeParse(body)
  if (refusal.success) {
    const { code, msg } = refusal.data
    const answer = { code, msg }
    // Not enumerable: comparing two refusals compares their code and message.
    return Object.defineProperty(answer, 'data', {
      enumerable: false,
      get(): never {
        throw new Error(`${e.id} was refused (${code} ${msg}): it has no data`)
      },
    }) as Answer<z.output<T>>
  }
  const envelope = successEnvelopeSchema(z.unknown()).safeParse(body)
  const data = e.data.safeParse(envelope.data?.data)
  if (!envelope.success || !data.success) {
    const issues = envelope.error ?? data.error
    throw new Error(`${e.id} answered outside its contract: ${JSON.stringify(body)} ${issues?.message}`)
  }
  return { code: envelope.data.code, msg: envelope.data.msg, data: data.data }
}

/**
 * Makes `app.inject` check every answer of a contract endpoint with `parseAnswer`, so a test that
 * reads answers field by field still fails on one outside the contract.
 */
export function checkAnswers(app: FastifyInstance): void {
  const inject = app.inject.bind(app)
  const checked = async (opts: InjectOptions | string) => {
    const res = await inject(opts)
    const url = typeof opts === 'string' ? opts : String(opts.url ?? opts.path ?? '')
    const method = typeof opts === 'string' ? 'GET' : (opts.method ?? 'GET').toUpperCase()
    const endpoint = ENDPOINTS.find((e) => e.method === method && e.path === url.split('?')[0])
    if (endpoint) parseAnswer<z.ZodType>(endpoint, res.json())
    return res
  }
  Object.defineProperty(app, 'inject', { value: checked, configurable: true })
}
