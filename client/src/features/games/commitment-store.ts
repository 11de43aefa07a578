import { readRaw, writeRaw } from '@client/lib/storage'
import { commitmentSchema } from '@shared/contract/games'
import { STORAGE_KEY } from '@shared/storage-keys'
import { z } from 'zod'
import { chainKey, type HeldCommitment, type HeldCommitments } from './commitment'

/**
 * The commitments this device holds, in localStorage by chain key (`start_height:created_at`), each
 * with when it was first seen. Kept with the games pages so the app's first screen does not load
 * the games contract.
 *
 * A stored value that cannot be read — not JSON, not an object, an entry of the wrong shape, a
 * terminal hash that is not 64 hex characters, an entry filed under another chain's key — is
 * reported as damaged, never read as "none held": the pages then warn, the verify page fails, and
 * nothing is written over it until the player chooses to (the game page's repair button).
 */

const HEX64 = /^[0-9a-f]{64}$/

const heldCommitmentSchema = commitmentSchema.extend({
  terminal_hash: z.string().regex(HEX64),
  seen_at: z.number().int(),
}) satisfies z.ZodType<HeldCommitment>

/** The whole stored value is unreadable (not JSON, or not an object of entries). */
export const WHOLE_VALUE = '*'

export interface StoredCommitments {
  /** The entries that read back whole. */
  held: HeldCommitments
  /** Keys of entries that did not, or WHOLE_VALUE; empty when everything stored is sound. */
  damaged: string[]
}

export function readHeldCommitments(): StoredCommitments {
  const raw = readRaw(STORAGE_KEY.gameCommitments)
  if (raw === null) return { held: {}, damaged: [] }
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    return { held: {}, damaged: [WHOLE_VALUE] }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { held: {}, damaged: [WHOLE_VALUE] }
  const held: HeldCommitments = {}
  const damaged: string[] = []
  for (const [key, entry] of Object.entries(value)) {
    const parsed = heldCommitmentSchema.safeParse(entry)
    if (parsed.success && chainKey(parsed.data) === key) held[key] = parsed.data
    else damaged.push(key)
  }
  return { held, damaged }
}

/** Stores the commitments; false when the browser did not keep them (storage full or disabled). */
export function writeHeldCommitments(held: HeldCommitments): boolean {
  const text = JSON.stringify(held)
  writeRaw(STORAGE_KEY.gameCommitments, text)
  return readRaw(STORAGE_KEY.gameCommitments) === text
}
