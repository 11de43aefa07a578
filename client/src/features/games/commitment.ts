import type { commitmentSchema } from '@shared/contract/games'
import type { z } from 'zod'

/**
 * The commitment a player holds: the first terminal hash this device saw for each chain of the
 * game server. A chain is known by where it starts and when it was made; it covers the heights
 * start_height + 1 … start_height + chain_length. The verify page proves a revealed key against
 * the held value, never against the terminal hash that arrives with the proof, so a server that
 * swapped its chain after the player looked cannot pass its own check.
 *
 * Every chain seen is kept, however many others come after it: a server that publishes chain after
 * chain cannot push the player's first one out and then swap it unnoticed.
 */

export type Commitment = z.infer<typeof commitmentSchema>
/** A commitment as this device keeps it, with when it was first seen. */
export type HeldCommitment = Commitment & { seen_at: number }
/** The commitments held, by chain key (`chainKey`). */
export type HeldCommitments = Record<string, HeldCommitment>

export const chainKey = (c: Pick<Commitment, 'start_height' | 'created_at'>): string =>
  `${c.start_height}:${c.created_at}`

/** Whether a chain's blocks include this height. */
export const covers = (c: Pick<Commitment, 'start_height' | 'chain_length'>, height: number): boolean =>
  height > c.start_height && height <= c.start_height + c.chain_length

const overlaps = (a: Commitment, b: Commitment): boolean =>
  a.start_height < b.start_height + b.chain_length && b.start_height < a.start_height + a.chain_length

const sameCommitment = (a: Commitment, b: Commitment): boolean =>
  a.terminal_hash === b.terminal_hash &&
  a.start_height === b.start_height &&
  a.chain_length === b.chain_length

export interface HoldResult {
  /** What to store: unchanged when this chain was seen before. */
  held: HeldCommitments
  /** The commitment held for the heights the server's commitment covers (the first seen). */
  first: HeldCommitment
  /** The server now publishes something else for heights a held commitment already covers. */
  changed: boolean
}

/** The held commitment that decides a height: the first seen of those covering it. */
export function heldFor(held: HeldCommitments, height: number): HeldCommitment | null {
  let best: HeldCommitment | null = null
  for (const c of Object.values(held))
    if (covers(c, height) && (best === null || c.seen_at < best.seen_at)) best = c
  return best
}

/**
 * Records the server's current commitment if its chain is new here, and tells whether it
 * contradicts a commitment held before: the same chain with another terminal hash, or another
 * chain over heights an earlier one already covers.
 */
export function holdCommitment(held: HeldCommitments, seen: Commitment, now: number): HoldResult {
  const key = chainKey(seen)
  const rivals = Object.values(held).filter(
    (c) => (chainKey(c) === key || overlaps(c, seen)) && !sameCommitment(c, seen),
  )
  const next = held[key] ? held : { ...held, [key]: { ...seen, seen_at: now } }
  const own = next[key] ?? { ...seen, seen_at: now }
  const earliest = [own, ...rivals].reduce((a, b) => (b.seen_at < a.seen_at ? b : a))
  return { held: next, first: earliest, changed: rivals.length > 0 }
}

/** Whether the commitment sent with a proof differs from the one held for that round. */
export const commitmentChanged = (held: HeldCommitment, sent: Commitment): boolean =>
  !sameCommitment(held, sent)
