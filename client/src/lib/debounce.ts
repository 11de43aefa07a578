import { DEBOUNCE_MS } from '@shared/constants'
import { useEffect, useLayoutEffect, useMemo, useRef } from 'react'

export interface Debounced<A extends unknown[]> {
  (...args: A): void
  /** Drops the pending call, if any. */
  cancel(): void
  /** Runs the pending call now, if any. */
  flush(): void
  pending(): boolean
}

/**
 * Trailing-edge debounce: `fn` runs once, `ms` after the last call, with that call's arguments.
 */
export function debounce<A extends unknown[]>(
  fn: (...args: A) => void,
  ms: number = DEBOUNCE_MS,
): Debounced<A> {
  let timer: ReturnType<typeof setTimeout> | undefined
  let lastArgs: A | undefined

  const run = () => {
    const args = lastArgs
    timer = undefined
    lastArgs = undefined
    if (args) fn(...args)
  }

  const debounced = (...args: A) => {
    lastArgs = args
    if (timer !== undefined) clearTimeout(timer)
    timer = setTimeout(run, ms)
  }
  debounced.cancel = () => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    lastArgs = undefined
  }
  debounced.flush = () => {
    if (timer === undefined) return
    clearTimeout(timer)
    run()
  }
  debounced.pending = () => timer !== undefined
  return debounced
}

/**
 * A debounced callback that keeps its identity across renders (so it can sit in dependency lists)
 * while always calling the latest `fn`. A call still pending when the component unmounts is dropped,
 * so nothing runs against an unmounted component.
 */
export function useDebouncedCallback<A extends unknown[]>(
  fn: (...args: A) => void,
  ms: number = DEBOUNCE_MS,
): Debounced<A> {
  const latest = useRef(fn)
  useLayoutEffect(() => {
    latest.current = fn
  })
  const debounced = useMemo(() => debounce((...args: A) => latest.current(...args), ms), [ms])
  useEffect(() => () => debounced.cancel(), [debounced])
  return debounced
}
