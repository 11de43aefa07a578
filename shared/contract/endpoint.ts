import type { z } from 'zod'

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE'
/** How a body travels (docs/product.md#calls): urlencoded forms by default, multipart for form data or files. */
export type BodyEncoding = 'urlencoded' | 'multipart' | 'json'

/**
 * One endpoint: the single place both sides are typed by. The server registers it as the
 * route schema; the client's HTTP function sends and parses with it; OpenAPI is built from it.
 */
export interface Endpoint {
  /** Unique operation id. */
  readonly id: string
  readonly method: HttpMethod
  /** Full path, under /api. */
  readonly path: `/api/${string}`
  readonly summary: string
  readonly tag: string
  /**
   * `spec`: the path is one the upstream serves (docs/product.md#calls).
   * `ours`: an endpoint the upstream's documentation (docs/product.md#calls) leaves out, defined here so the emulator and client agree.
   */
  readonly source: 'spec' | 'ours'
  /**
   * `spec`: request and data fields as that documentation gives them.
   * `ours`: the documentation shows none, so the fields are our design; map them to the upstream here.
   */
  readonly fields: 'spec' | 'ours'
  /** Whether the call needs a session (the `token` header). */
  readonly auth: boolean
  readonly query?: z.ZodObject
  readonly body?: z.ZodType
  readonly encoding?: BodyEncoding
  /** Schema of `data` in a successful envelope. */
  readonly data: z.ZodType
  /** Set to false for calls that never show the loading toast (docs/product.md#constants: the balance call). */
  readonly loadingToast?: boolean
  /** Money-moving POSTs accept an Idempotency-Key header. */
  readonly idempotent?: boolean
}

/**
 * The wire side of an endpoint: what sending a call needs, without its schemas. A module that
 * holds only routes loads no zod (first-screen.ts: the client sends those calls before the
 * contract's schemas have loaded).
 */
export type EndpointRoute = Pick<
  Endpoint,
  'method' | 'path' | 'auth' | 'encoding' | 'loadingToast' | 'idempotent'
>

export const defineEndpoint = <const E extends Endpoint>(endpoint: E): E => endpoint

export type QueryOf<E extends Endpoint> = E['query'] extends z.ZodType ? z.input<E['query']> : undefined
export type BodyOf<E extends Endpoint> = E['body'] extends z.ZodType ? z.input<E['body']> : undefined
export type DataOf<E extends Endpoint> = z.output<E['data']>

/**
 * An /api endpoint whose success is bytes, not the envelope: the image proxy and the content
 * images. A success answers 200 with one of `answer.types`; a refusal is still the envelope with
 * its HTTP status. Neither needs a session nor reads a body, and the upstream serves neither, so
 * the envelope endpoints' walks (the fuzz test, docs/upstream.md, the upstream check) leave them
 * out; the route list and OpenAPI take them from `BYTES_ENDPOINTS` (./registry.ts).
 */
export interface BytesEndpoint {
  readonly id: string
  readonly method: 'GET'
  /** Full path, under /api; a `:name` segment is a path parameter described by `params`. */
  readonly path: `/api/${string}`
  readonly summary: string
  readonly tag: string
  readonly source: 'ours'
  readonly fields: 'ours'
  readonly auth: false
  readonly params?: z.ZodObject
  readonly query?: z.ZodObject
  /** What a success answers: the media types it may carry, and in words what the bytes are. */
  readonly answer: { readonly types: readonly string[]; readonly description: string }
  /** The refusals it gives besides bad input (400), by HTTP status: when, and the envelope's code. */
  readonly refusals: Readonly<Record<string, string>>
}

export const defineBytesEndpoint = <const E extends BytesEndpoint>(endpoint: E): E => endpoint
