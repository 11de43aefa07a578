/**
 * A job that one process of a deployment does for all of them (proxy mode's reader of the
 * upstream's rounds and results, docs/realtime.md). Each process asks `tryHold()` before each turn
 * of the job and does it only on `true`. A lease held by a process that stops expires after its
 * time to live, so another takes the job over.
 */
export interface Lease {
  /**
   * Takes the lease, or renews it when this process holds it; false when another process holds it.
   * A lease may answer from what it last heard while that still holds (the Redis lease does for
   * half its time to live).
   */
  tryHold(): Promise<boolean>
  /** Gives the lease up (a closing process), so another can take it at once. */
  release(): Promise<void>
}

/** One process: the job is always this process's. */
export const soleLease: Lease = {
  tryHold: async () => true,
  release: async () => undefined,
}
