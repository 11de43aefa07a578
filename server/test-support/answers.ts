import { ENDPOINTS } from '@shared/contract/registry'
import {
  type ControlEndpoint,
  matchesControlPath,
  pathParamNames,
} from '@shared/emu-contract/control-endpoint'
import { CONTROL_ENDPOINTS } from '@shared/emu-contract/registry'
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
 * The contract of a call: an /api endpoint by its path, or a control call (/__emu) by its path with
 * its parameters; a fixed segment wins over a parameter (`/sessions/:token/lifetime` over
 * `/sessions/:token/:fault`). Undefined for a path no contract names.
 */
export function contractOf(
  method: string,
  url: string,
): { readonly id: string; readonly data: z.ZodType } | undefined {
  const path = url.split('?')[0] ?? ''
  const upper = method.toUpperCase()
  if (path === '/__emu' || path.startsWith('/__emu/')) {
    const params = (e: ControlEndpoint) => pathParamNames(e.path).length
    return CONTROL_ENDPOINTS.filter((e) => e.method === upper && matchesControlPath(e, path)).sort(
      (a, b) => params(a) - params(b),
    )[0]
  }
  return ENDPOINTS.find((e) => e.method === upper && e.path === path)
}

/**
 * Makes `app.inject` check every answer of a contract endpoint with `parseAnswer`, /api and /__emu
 * alike, so a test that reads answers field by field still fails on one outside the contract.
 */
export function checkAnswers(app: FastifyInstance): void {
  const inject = app.inject.bind(app)
  const checked = async (opts: InjectOptions | string) => {
    const res = await inject(opts)
    const url = typeof opts === 'string' ? opts : String(opts.url ?? opts.path ?? '')
    const method = typeof opts === 'string' ? 'GET' : (opts.method ?? 'GET')
    const endpoint = contractOf(method, url)
    if (endpoint) parseAnswer<z.ZodType>(endpoint, res.json())
    return res
  }
  Object.defineProperty(app, 'inject', { value: checked, configurable: true })
}

/** `fetch` that checks control answers; `checked` counts them. */
export type CheckingFetch = typeof fetch & { readonly checked: number }

/**
 * A `fetch` for tests that call a server over its socket: every answer of a control call (/__emu)
 * is parsed with its contract by `parseAnswer` before the test sees it, so one outside the contract
 * fails the test. (/api answers pass unchecked: a test's fault rules shape those on purpose.)
 */
export function checkingFetch(inner: typeof fetch = fetch): CheckingFetch {
  let count = 0
  const checked = async (input: string | URL | Request, init?: RequestInit) => {
    const res = await inner(input, init)
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url)
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET')
    if (url.pathname.startsWith('/__emu')) {
      const endpoint = contractOf(method, url.pathname)
      if (endpoint) {
        parseAnswer<z.ZodType>(endpoint, await res.clone().json())
        count++
      }
    }
    return res
  }
  return Object.defineProperty(checked, 'checked', { get: () => count }) as CheckingFetch
}
