// @vitest-environment happy-dom

import { STORAGE_KEY } from '@shared/storage-keys'
import { beforeEach, describe, expect, it } from 'vitest'
import { chainKey, holdCommitment } from './commitment'
import { readHeldCommitments, writeHeldCommitments } from './commitment-store'

const A = {
  terminal_hash: 'a'.repeat(64),
  chain_length: 1000,
  start_height: 5000,
  block_ms: 3000,
  created_at: 1_700_000_000_000,
}

beforeEach(() => localStorage.clear())

describe('held commitments in storage', () => {
  it('reads back what was written', () => {
    const { held } = holdCommitment(readHeldCommitments(), A, 10)
    writeHeldCommitments(held)
    expect(localStorage.getItem(STORAGE_KEY.gameCommitments)).toContain(A.terminal_hash)
    expect(readHeldCommitments()[chainKey(A)]).toEqual({ ...A, seen_at: 10 })
  })

  it('reads a missing, broken or wrongly shaped value as none held', () => {
    expect(readHeldCommitments()).toEqual({})
    localStorage.setItem(STORAGE_KEY.gameCommitments, '{not json')
    expect(readHeldCommitments()).toEqual({})
    localStorage.setItem(STORAGE_KEY.gameCommitments, JSON.stringify({ x: { terminal_hash: 1 } }))
    expect(readHeldCommitments()).toEqual({})
  })
})
