import type { EndpointRoute } from './endpoint'

/**
 * How a call is put on the wire from a contract object: the query string and the body in the
 * endpoint's encoding (docs/product.md#calls). The app's HTTP client and the browser tests' direct
 * calls both send this way.
 */

type FieldValue = string | number | boolean | bigint | Blob | null | undefined

function fieldEntries(values: unknown): [string, FieldValue | FieldValue[]][] {
  if (values === null || values === undefined || typeof values !== 'object') return []
  return Object.entries(values as Record<string, FieldValue | FieldValue[]>)
}

function appendText(params: URLSearchParams, values: unknown): URLSearchParams {
  for (const [key, value] of fieldEntries(values)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null || item instanceof Blob) continue
      params.append(key, String(item))
    }
  }
  return params
}

/** The endpoint's path with the query, e.g. `/api/api/getBalance?player_id=7`. */
export function pathWithQuery(endpoint: EndpointRoute, query: unknown): string {
  const qs = appendText(new URLSearchParams(), query).toString()
  return `${endpoint.path}${qs ? `?${qs}` : ''}`
}

/** The body in the endpoint's encoding; a JSON body is a string (send it as application/json). */
export function encodeBody(endpoint: EndpointRoute, body: unknown): BodyInit | undefined {
  if (endpoint.method === 'GET' || body === undefined || body === null) return undefined
  switch (endpoint.encoding ?? 'urlencoded') {
    case 'multipart': {
      const form = new FormData()
      for (const [key, value] of fieldEntries(body)) {
        for (const item of Array.isArray(value) ? value : [value]) {
          if (item === undefined || item === null) continue
          form.append(key, item instanceof Blob ? item : String(item))
        }
      }
      return form
    }
    case 'json':
      return JSON.stringify(body)
    default:
      return appendText(new URLSearchParams(), body)
  }
}
