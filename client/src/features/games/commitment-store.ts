import { readRaw, writeRaw } from '@client/lib/storage'
import { commitmentSchema } from '@shared/contract/games'
import { STORAGE_KEY } from '@shared/storage-keys'
import { z } from 'zod'

/**
 * The commitments this device holds, in localStorage by chain key, each with when it was first
 * seen. Kept with the games pages so the app's first screen does not load the games contract.
 * A missing, unreadable or hand-edited value that no longer fits the shape reads as none held.
 */

export const heldCommitmentsSchema = z.record(
  z.string(),
  commitmentSchema.extend({ seen_at: z.number().int() }),
)
export type HeldCommitments = z.infer<typeof heldCommitmentsSchema>

export function readHeldCommitments(): HeldCommitments {
  const raw = readRaw(STORAGE_KEY.gameCommitments)
  if (raw === null) return {}
  try {
    const parsed = heldCommitmentsSchema.safeParse(JSON.parse(raw))
    return parsed.success ? parsed.data : {}
  } catch {
    return {}
  }
}

export const writeHeldCommitments = (held: HeldCommitments): void =>
  writeRaw(STORAGE_KEY.gameCommitments, JSON.stringify(held))
