import type { Endpoint } from '@shared/contract/endpoint'
import { ENDPOINTS } from '@shared/contract/registry'
import { isSuccessCode, looseEnvelopeSchema } from '@shared/envelope'
import type { FastifyBaseLogger } from 'fastify'
import type { z } from 'zod'
import type { Metrics } from '../ops/metrics'
import { flatten } from './compare-answer'

const ROUTES = new Map<string, Endpoint>(ENDPOINTS.map((e) => [`${e.method} ${e.path}`, e]))

/** The contract endpoint a method and URL reach, if any. */
export function contractEndpoint(method: string, url: string): Endpoint | undefined {
  const q = url.indexOf('?')
  const path = q < 0 ? url : url.slice(0, q)
  // The router takes `/api/login/` for `/api/login` (ignoreTrailingSlash): so does this.
  const route = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path
  return ROUTES.get(`${method} ${route}`)
}

/** One way an upstream answer differs from the contract, at one field. */
export interface Mismatch {
  /** `data.list[].amount`: the field, with list positions written `[]`. */
  readonly path: string
  readonly problem: string
}

/** A kind of mismatch as counted: one endpoint, one field, one problem. */
export interface ViolationCount extends Mismatch {
  readonly endpoint: string
  count: number
  firstAt: number
  lastAt: number
}

/** `['data', 'list', 0, 'amount']` → `data.list[].amount`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = ''
  for (const part of path) {
    if (typeof part === 'number') out += '[]'
    else out += out === '' ? String(part) : `.${String(part)}`
  }
  return out
}

/** What a value is, as a mismatch names it. */
function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

/** The mismatches of one zod failure, each at its field, naming what was expected and what came. */
export function mismatchesOf(
  error: z.ZodError,
  root: unknown,
  prefix: readonly PropertyKey[] = [],
): Mismatch[] {
  return flatten(error.issues, root).map(({ path, expected, got }) => ({
    path: fieldPath([...prefix, ...path]) || '(answer)',
    problem: `expected ${expected}, got ${got === undefined ? 'nothing' : kindOf(got)}`,
  }))
}

/**
 * Checks an answer body against an endpoint's contract: a JSON envelope, and on success its `data`
 * against the endpoint's schema. An empty list when it conforms.
 */
export function checkAnswer(endpoint: Endpoint, body: string | Buffer): Mismatch[] {
  let json: unknown
  try {
    json = JSON.parse(typeof body === 'string' ? body : body.toString('utf8'))
  } catch {
    return [{ path: '(answer)', problem: 'not JSON' }]
  }
  const envelope = looseEnvelopeSchema.safeParse(json)
  if (!envelope.success) return mismatchesOf(envelope.error, json)
  if (!isSuccessCode(envelope.data.code)) return []
  const data = endpoint.data.safeParse(envelope.data.data)
  return data.success ? [] : mismatchesOf(data.error, envelope.data.data, ['data'])
}

/**
 * Proxy mode's watch on the upstream: every answer of a contract endpoint (or a sample of them) is
 * checked against the contract; each kind of mismatch is counted (for /__emu, the metrics and the
 * journal) and logged once, with its field path, not once per request.
 */
export class ContractMonitor {
  private readonly counts = new Map<string, ViolationCount>()

  constructor(
    private readonly opts: {
      log: FastifyBaseLogger
      metrics: Metrics | null
      /** Share of answers checked, 0 to 1. */
      sample: number
      now?: () => number
      random?: () => number
    },
  ) {}

  /** The contract endpoint a request reaches, if it should be checked now (the sample). */
  endpointFor(method: string, url: string): Endpoint | undefined {
    const e = contractEndpoint(method, url)
    if (!e) return undefined
    const { sample } = this.opts
    if (sample >= 1 || (sample > 0 && (this.opts.random ?? Math.random)() < sample)) return e
    return undefined
  }

  /** Checks one answer; counts and logs what differs. */
  observe(endpoint: Endpoint, body: string | Buffer): Mismatch[] {
    return this.count(endpoint, checkAnswer(endpoint, body))
  }

  /** The upstream does not serve the endpoint (404, 405, 501): counted like a difference. */
  missing(endpoint: Endpoint, status: number): Mismatch[] {
    return this.count(endpoint, [{ path: '(endpoint)', problem: `missing: HTTP ${status}` }])
  }

  private count(endpoint: Endpoint, found: Mismatch[]): Mismatch[] {
    const now = (this.opts.now ?? Date.now)()
    for (const m of found) {
      const key = `${endpoint.id}\u0000${m.path}\u0000${m.problem}`
      const seen = this.counts.get(key)
      if (seen) {
        seen.count++
        seen.lastAt = now
      } else {
        this.counts.set(key, { endpoint: endpoint.id, ...m, count: 1, firstAt: now, lastAt: now })
        this.opts.log.warn(
          { endpoint: endpoint.id, path: endpoint.path, field: m.path, problem: m.problem },
          'upstream answer differs from the contract (logged once per kind; counted at /__emu/upstream/contract)',
        )
      }
      this.opts.metrics?.contractViolations.inc({ endpoint: endpoint.id, field: m.path })
    }
    return found
  }

  /** Every kind seen since start, most frequent first. */
  violations(): ViolationCount[] {
    return [...this.counts.values()].sort((a, b) => b.count - a.count)
  }

  clear(): void {
    this.counts.clear()
  }
}
