import { describe, expect, it } from 'vitest'
import { chainKey, commitmentChanged, covers, heldFor, holdCommitment, MAX_HELD } from './commitment'

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

  it(`remembers at most ${MAX_HELD} chains, forgetting the oldest seen`, () => {
    let held = {}
    for (let i = 0; i <= MAX_HELD; i++)
      held = holdCommitment(held, { ...A, start_height: i * 10_000, created_at: i }, i).held
    expect(Object.keys(held)).toHaveLength(MAX_HELD)
    expect(heldFor(held, 1)).toBeNull()
  })
})
