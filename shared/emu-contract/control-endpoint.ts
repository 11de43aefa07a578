import type { HttpMethod } from '@shared/contract/endpoint'
import type { z } from 'zod'

/**
 * One call of the tester's API under /__emu (docs/testing.md): the single place its path, request
 * and answer are written. The server registers the route from it, the typed test client sends and
 * parses with it, and the control API's OpenAPI document is built from it. Like an /api
 * `Endpoint`, but every body is JSON, the path may carry `:name` parameters, and the answer is the
 * control envelope (`controlEnvelopeSchema` in ../emu-control.ts) whose `data` is `data` here.
 * Never imported by the app players download.
 */
export interface ControlEndpoint {
  /** Unique operation id. */
  readonly id: string
  readonly method: HttpMethod
  /** Full path, under /__emu; `:name` marks a path parameter. */
  readonly path: `/__emu/${string}`
  readonly summary: string
  readonly tag: string
  /**
   * The call reads or changes the emulator's own data: in proxy mode it is refused, or not there at
   * all (docs/testing.md#proxy-mode).
   */
  readonly emulatorOnly?: boolean
  /** One field per `:name` of the path. */
  readonly params?: z.ZodObject
  readonly query?: z.ZodObject
  /** Sent as JSON. */
  readonly body?: z.ZodType
  /** Schema of `data` in a successful envelope. */
  readonly data: z.ZodType
}

export const defineControl = <const E extends ControlEndpoint>(endpoint: E): E => endpoint

export type ControlParamsOf<E extends ControlEndpoint> = E['params'] extends z.ZodType
  ? z.input<E['params']>
  : undefined
export type ControlQueryOf<E extends ControlEndpoint> = E['query'] extends z.ZodType
  ? z.input<E['query']>
  : undefined
export type ControlBodyOf<E extends ControlEndpoint> = E['body'] extends z.ZodType
  ? z.input<E['body']>
  : undefined
export type ControlDataOf<E extends ControlEndpoint> = z.output<E['data']>

/** The names of a path's `:name` parameters, in order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/:(\w+)/g)].map((m) => m[1] ?? '')
}

/** The path with each `:name` replaced by its value, URL-encoded. */
export function controlPath(endpoint: ControlEndpoint, params: Record<string, unknown> = {}): string {
  return endpoint.path.replace(/:(\w+)/g, (_whole, name: string) => {
    const value = params[name]
    if (value === undefined || value === null || value === '') {
      throw new TypeError(`${endpoint.id}: path parameter ${name} is missing`)
    }
    return encodeURIComponent(String(value))
  })
}

/** Whether a request path (without its query) is this endpoint's, parameters matched. */
export function matchesControlPath(endpoint: ControlEndpoint, path: string): boolean {
  const pattern = endpoint.path
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/')
  return new RegExp(`^${pattern}/?$`).test(path)
}
