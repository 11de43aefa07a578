import { type Availability, availabilityOf } from '@client/components/page-shell/page-shell'
import { type ApiError, callApi } from '@client/lib/http'
import type { DataOf, Endpoint, QueryOf } from '@shared/contract/endpoint'
import useSWR, { type KeyedMutator } from 'swr'

export interface ProtectionRead<E extends Endpoint> {
  readonly data: DataOf<E> | undefined
  readonly availability: Availability
  readonly mutate: KeyedMutator<DataOf<E>>
}

/** Reads a protection endpoint quietly: a server without it hides the section instead of a toast. */
export function useProtectionRead<E extends Endpoint>(
  endpoint: E,
  query?: QueryOf<E> | null,
  refreshInterval = 0,
): ProtectionRead<E> {
  const { data, error, mutate } = useSWR<DataOf<E>, ApiError>(
    query === null ? null : ['quiet', endpoint.path, query ?? null],
    () => callApi(endpoint, query ? { query } : {}, { quiet: true }),
    // Only while the server answers: an upstream without the endpoint is not asked again and again.
    { shouldRetryOnError: false, refreshInterval: (latest) => (latest ? refreshInterval : 0) },
  )
  return { data, availability: availabilityOf(data, error), mutate }
}
