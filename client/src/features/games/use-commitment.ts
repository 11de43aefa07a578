import { useApi } from '@client/lib/use-api'
import { gameCommitment } from '@shared/contract/games'
import { useCallback, useEffect, useState } from 'react'
import { type Commitment, type HeldCommitment, holdCommitment } from './commitment'
import { readHeldCommitments, writeHeldCommitments } from './commitment-store'

export interface CommitmentView {
  /** What the server publishes now. */
  current: Commitment | null
  /** The first commitment this device holds for the same heights, when it holds one. */
  held: HeldCommitment | null
  changed: boolean
  /**
   * Stored entries that could not be read (see commitment-store.ts). While there are any, nothing
   * is stored: the server's current commitment is not pinned in their place without the player.
   */
  damaged: string[]
  /** The browser refused to store the commitment (storage full or disabled). */
  unsaved: boolean
  /** The player's choice: drop the damaged entries and hold the server's current commitment. */
  repair: () => void
}

/**
 * The server's commitment, remembered on this device the first time it is seen (per chain), with
 * a flag when the server now publishes something else for heights it already committed to.
 */
export function useCommitment(): CommitmentView {
  const { data } = useApi(gameCommitment, undefined)
  const [repairs, setRepairs] = useState(0)
  const [state, setState] = useState<Omit<CommitmentView, 'repair'>>({
    current: null,
    held: null,
    changed: false,
    damaged: [],
    unsaved: false,
  })
  // biome-ignore lint/correctness/useExhaustiveDependencies: a repair reads the store again
  useEffect(() => {
    if (!data) return
    const stored = readHeldCommitments()
    const res = holdCommitment(stored.held, data, Date.now())
    if (stored.damaged.length > 0) {
      // Only what was already held counts: the server's commitment is not pinned over the damage.
      const alreadyHeld = Object.values(stored.held).includes(res.first)
      setState({
        current: data,
        held: alreadyHeld ? res.first : null,
        changed: res.changed,
        damaged: stored.damaged,
        unsaved: false,
      })
      return
    }
    const saved = res.held === stored.held || writeHeldCommitments(res.held)
    setState({ current: data, held: res.first, changed: res.changed, damaged: [], unsaved: !saved })
  }, [data, repairs])
  const repair = useCallback(() => {
    if (!data) return
    const { held } = readHeldCommitments()
    writeHeldCommitments(holdCommitment(held, data, Date.now()).held)
    setRepairs((n) => n + 1)
  }, [data])
  return { ...state, repair }
}
