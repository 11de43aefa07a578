import { afterCommit, type Db } from '@server/db/database'
import type { EventHub, Publish } from './event-hub'

/**
 * The domains' `Publish` over a hub: an event raised inside a transaction goes out once that
 * transaction has committed, and never when it rolls back (see `afterCommit`), so no client hears
 * of a balance or a draw that is not in the database.
 */
export function committedPublisher(db: Db, hub: EventHub, onError: (err: unknown) => void): Publish {
  return (type, data, audience) =>
    afterCommit(db, () => {
      try {
        hub.publish({ type, data } as Parameters<EventHub['publish']>[0], audience)
      } catch (err) {
        onError(err)
      }
    })
}
