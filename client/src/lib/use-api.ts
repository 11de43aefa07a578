import type { DataOf, Endpoint, QueryOf } from '@shared/contract/endpoint'
import useSWR, { type SWRConfiguration, type SWRResponse } from 'swr'
import { type ApiError, callEndpoint } from './http'

/**
 * SWR on top of callApi for reads. The key is `[path, query]` (every input in the key); the one
 * fetcher, set in SWRConfig, finds the contract by its path.
 */

const readEndpoints = new Map<string, Endpoint>()

export type ApiKey = readonly [path: string, query: unknown]

export function apiKey<E extends Endpoint>(endpoint: E, query?: QueryOf<E>): ApiKey {
  readEndpoints.set(endpoint.path, endpoint)
  return [endpoint.path, query ?? null]
}

export function apiFetcher(key: ApiKey): Promise<unknown> {
  const [path, query] = key
  const endpoint = readEndpoints.get(path)
  if (!endpoint) throw new Error(`no contract registered for ${path}`)
  return callEndpoint(endpoint, query === null ? {} : { query })
}

/** Reads an endpoint. Pass `null` as the query to wait (e.g. until a player id is known). */
export function useApi<E extends Endpoint>(
  endpoint: E,
  query: QueryOf<E> | null | undefined,
  config?: SWRConfiguration<DataOf<E>, ApiError>,
): SWRResponse<DataOf<E>, ApiError> {
  const key = query === null ? null : apiKey(endpoint, query)
  return useSWR<DataOf<E>, ApiError, ApiKey | null>(key, config ?? {})
}
