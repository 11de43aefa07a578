import { describe, expect, it } from 'vitest'
import {
  chainKey,
  commitmentChanged,
  covers,
  type HeldCommitments,
  heldFor,
  holdCommitment,
} from './commitment'

const A = {
  terminal_hash: 'a'.repeat(64),
  chain_length: 1000,
  start_height: 5000,
  block_ms: 3000,
  created_at: 1_700_000_000_000,
}

describe('the commitment a player holds', () => {
  it('keeps the first commitment seen per chain and reports nothing changed on a repeat', () => {
    const first = holdCommitment({}, A, 10)
    expect(first.changed).toBe(false)
    expect(first.held[chainKey(A)]).toEqual({ ...A, seen_at: 10 })
    const again = holdCommitment(first.held, A, 20)
    expect(again.changed).toBe(false)
    expect(again.held).toBe(first.held)
    expect(again.first.seen_at).toBe(10)
  })

  it('reports a changed terminal hash for the same chain and keeps the first one', () => {
    const { held } = holdCommitment({}, A, 10)
    const swapped = { ...A, terminal_hash: 'b'.repeat(64) }
    const res = holdCommitment(held, swapped, 20)
    expect(res.changed).toBe(true)
    expect(res.first.terminal_hash).toBe(A.terminal_hash)
    expect(res.held[chainKey(A)]?.terminal_hash).toBe(A.terminal_hash)
    expect(commitmentChanged(res.first, swapped)).toBe(true)
  })

  it('reports a new chain over heights an earlier one covers, and the earlier one still decides them', () => {
    const { held } = holdCommitment({}, A, 10)
    const rival = { ...A, terminal_hash: 'c'.repeat(64), created_at: A.created_at + 1, start_height: 5500 }
    const res = holdCommitment(held, rival, 20)
    expect(res.changed).toBe(true)
    expect(heldFor(res.held, 5600)?.terminal_hash).toBe(A.terminal_hash)
    expect(heldFor(res.held, 6200)?.terminal_hash).toBe(rival.terminal_hash)
  })

  it('takes a chain that starts after the last one ends as a new chain, not a change', () => {
    const { held } = holdCommitment({}, A, 10)
    const next = { ...A, terminal_hash: 'd'.repeat(64), created_at: A.created_at + 1, start_height: 6000 }
    expect(holdCommitment(held, next, 20).changed).toBe(false)
  })

  it('covers start + 1 … start + length', () => {
    expect(covers(A, 5000)).toBe(false)
    expect(covers(A, 5001)).toBe(true)
    expect(covers(A, 6000)).toBe(true)
    expect(covers(A, 6001)).toBe(false)
    expect(heldFor({}, 5001)).toBeNull()
  })

  it('keeps every chain seen, so many unrelated ones cannot push the first out before a swap', () => {
    let held: HeldCommitments = holdCommitment({}, A, 10).held
    for (let i = 1; i <= 25; i++)
      held = holdCommitment(
        held,
        { ...A, start_height: 100_000 * i, created_at: A.created_at + i },
        10 + i,
      ).held
    expect(Object.keys(held)).toHaveLength(26)
    expect(heldFor(held, 5001)).toEqual({ ...A, seen_at: 10 })
    const swapped = holdCommitment(held, { ...A, terminal_hash: 'b'.repeat(64) }, 100)
    expect(swapped.changed).toBe(true)
    expect(swapped.first.terminal_hash).toBe(A.terminal_hash)
  })
})
