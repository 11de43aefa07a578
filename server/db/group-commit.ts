import { AsyncResource } from 'node:async_hooks'
import { type Db, immediate } from './database'

interface Pending {
  readonly work: () => unknown
  readonly resolve: (value: unknown) => void
  readonly reject: (err: unknown) => void
}

/** Most units of work in one transaction; the rest go into the next. */
const MAX_BATCH = 64

const queues = new WeakMap<Db, Pending[]>()

/**
 * Group commit: runs `work` in a write transaction shared with the other units of work queued in
 * the same turn of the event loop, each in a savepoint of its own, and settles when that
 * transaction has committed. A unit that throws is undone alone and its promise rejects; the
 * others commit. Nothing is answered before its writes are committed, and one commit (the costly
 * part of a small write on a file database) serves every call that arrived together.
 *
 * `work` must be synchronous; it runs in the async context of the caller.
 */
export function commitGrouped<T>(db: Db, work: () => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let queue = queues.get(db)
    if (!queue) {
      queue = []
      queues.set(db, queue)
    }
    // A resource rather than AsyncResource.bind: bind also defines deprecated accessors on every
    // bound function, which costs more than the rest of queuing a call.
    const context = new AsyncResource('commitGrouped')
    queue.push({
      work: () => context.runInAsyncScope(work),
      resolve: resolve as (value: unknown) => void,
      reject,
    })
    if (queue.length === 1) setImmediate(flush, db)
  })
}

function flush(db: Db): void {
  const queue = queues.get(db)
  if (!queue || queue.length === 0) return
  const batch = queue.splice(0, MAX_BATCH)
  if (queue.length > 0) setImmediate(flush, db)
  const outcomes: ({ ok: true; value: unknown } | { ok: false; err: unknown })[] = []
  try {
    immediate(db, () => {
      for (const p of batch) {
        try {
          outcomes.push({ ok: true, value: immediate(db, p.work) })
        } catch (err) {
          outcomes.push({ ok: false, err })
        }
      }
    })
  } catch (err) {
    // The transaction itself failed (the commit, or the write lock): nothing was written.
    for (const p of batch) p.reject(err)
    return
  }
  batch.forEach((p, i) => {
    const o = outcomes[i]
    if (o?.ok) p.resolve(o.value)
    else p.reject(o?.err)
  })
}
