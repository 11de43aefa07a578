// @vitest-environment happy-dom

import { STORAGE_KEY } from '@shared/storage-keys'
import { act, cleanup, renderHook } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { chainKey } from './commitment'
import { readHeldCommitments } from './commitment-store'
import { useCommitment } from './use-commitment'

const A = {
  terminal_hash: 'a'.repeat(64),
  chain_length: 1000,
  start_height: 5000,
  block_ms: 3000,
  created_at: 1_700_000_000_000,
}

/** What the server publishes: the hook reads it through useApi. */
let published: typeof A = A
vi.mock('@client/lib/use-api', () => ({ useApi: () => ({ data: published }) }))

beforeEach(() => {
  localStorage.clear()
  published = A
})
afterEach(cleanup)

const stored = () => localStorage.getItem(STORAGE_KEY.gameCommitments)

describe('useCommitment', () => {
  it('holds the first commitment seen and flags a later swap on the same chain', () => {
    const first = renderHook(() => useCommitment())
    expect(first.result.current).toMatchObject({
      held: { terminal_hash: A.terminal_hash },
      changed: false,
      damaged: [],
    })
    first.unmount()
    published = { ...A, terminal_hash: 'b'.repeat(64) }
    const second = renderHook(() => useCommitment())
    expect(second.result.current).toMatchObject({ held: { terminal_hash: A.terminal_hash }, changed: true })
    expect(readHeldCommitments().held[chainKey(A)]?.terminal_hash).toBe(A.terminal_hash)
  })

  it('never pins the server’s commitment over a damaged one, until the player repairs', () => {
    const damaged = JSON.stringify({ [chainKey(A)]: { ...A, terminal_hash: 'zz', seen_at: 1 } })
    localStorage.setItem(STORAGE_KEY.gameCommitments, damaged)
    const { result } = renderHook(() => useCommitment())
    expect(result.current).toMatchObject({ held: null, damaged: [chainKey(A)] })
    expect(stored()).toBe(damaged)
    act(() => result.current.repair())
    expect(result.current).toMatchObject({
      held: { terminal_hash: A.terminal_hash },
      damaged: [],
      changed: false,
    })
    expect(readHeldCommitments()).toMatchObject({
      damaged: [],
      held: { [chainKey(A)]: { terminal_hash: A.terminal_hash } },
    })
  })

  it('keeps showing the sound held one next to damaged entries', () => {
    const other = { ...A, start_height: 90_000 }
    localStorage.setItem(
      STORAGE_KEY.gameCommitments,
      JSON.stringify({ [chainKey(A)]: { ...A, seen_at: 1 }, [chainKey(other)]: { broken: true } }),
    )
    published = { ...A, terminal_hash: 'c'.repeat(64) }
    const { result } = renderHook(() => useCommitment())
    expect(result.current).toMatchObject({
      held: { terminal_hash: A.terminal_hash },
      changed: true,
      damaged: [chainKey(other)],
    })
  })
})
