import { useApi } from '@client/lib/use-api'
import { gameCommitment } from '@shared/contract/games'
import { useEffect, useState } from 'react'
import { type Commitment, type HeldCommitment, holdCommitment } from './commitment'
import { readHeldCommitments, writeHeldCommitments } from './commitment-store'

export interface CommitmentView {
  /** What the server publishes now. */
  current: Commitment | null
  /** The first commitment this device saw for the same heights. */
  held: HeldCommitment | null
  changed: boolean
}

/**
 * The server's commitment, remembered on this device the first time it is seen (per chain), with
 * a flag when the server now publishes something else for heights it already committed to.
 */
export function useCommitment(): CommitmentView {
  const { data } = useApi(gameCommitment, undefined)
  const [view, setView] = useState<CommitmentView>({ current: null, held: null, changed: false })
  useEffect(() => {
    if (!data) return
    const res = holdCommitment(readHeldCommitments(), data, Date.now())
    writeHeldCommitments(res.held)
    setView({ current: data, held: res.first, changed: res.changed })
  }, [data])
  return view
}
