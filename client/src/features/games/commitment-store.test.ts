// @vitest-environment happy-dom

import { STORAGE_KEY } from '@shared/storage-keys'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { chainKey, holdCommitment } from './commitment'
import { readHeldCommitments, WHOLE_VALUE, writeHeldCommitments } from './commitment-store'

const A = {
  terminal_hash: 'a'.repeat(64),
  chain_length: 1000,
  start_height: 5000,
  block_ms: 3000,
  created_at: 1_700_000_000_000,
}
const B = { ...A, terminal_hash: 'b'.repeat(64), start_height: 9000 }

beforeEach(() => localStorage.clear())
afterEach(() => vi.restoreAllMocks())

const store = (value: unknown) =>
  localStorage.setItem(STORAGE_KEY.gameCommitments, typeof value === 'string' ? value : JSON.stringify(value))

describe('held commitments in storage', () => {
  it('reads back what was written', () => {
    const { held } = holdCommitment(readHeldCommitments().held, A, 10)
    expect(writeHeldCommitments(held)).toBe(true)
    expect(localStorage.getItem(STORAGE_KEY.gameCommitments)).toContain(A.terminal_hash)
    expect(readHeldCommitments()).toEqual({ held: { [chainKey(A)]: { ...A, seen_at: 10 } }, damaged: [] })
  })

  it('reads nothing stored as none held, with nothing damaged', () => {
    expect(readHeldCommitments()).toEqual({ held: {}, damaged: [] })
  })

  it('reports an unreadable value as damaged, never as none held', () => {
    store('{not json')
    expect(readHeldCommitments()).toEqual({ held: {}, damaged: [WHOLE_VALUE] })
    store([A])
    expect(readHeldCommitments().damaged).toEqual([WHOLE_VALUE])
    store('null')
    expect(readHeldCommitments().damaged).toEqual([WHOLE_VALUE])
  })

  it('reports each damaged entry by its key and keeps the sound ones', () => {
    const sound = { ...B, seen_at: 5 }
    store({
      [chainKey(A)]: { ...A, terminal_hash: 'not a hash', seen_at: 1 },
      [chainKey(B)]: sound,
      x: { terminal_hash: 1 },
      // A sound entry filed under another chain's key: the key decides which heights it covers.
      '1:2': { ...A, seen_at: 1 },
    })
    const read = readHeldCommitments()
    expect(read.held).toEqual({ [chainKey(B)]: sound })
    expect(read.damaged).toEqual([chainKey(A), 'x', '1:2'])
    store({ [chainKey(A)]: { ...A, terminal_hash: 'A'.repeat(64), seen_at: 1 } })
    expect(readHeldCommitments().damaged).toEqual([chainKey(A)])
  })

  it('says so when the browser does not keep what was written', () => {
    vi.spyOn(localStorage, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError')
    })
    expect(writeHeldCommitments({ [chainKey(A)]: { ...A, seen_at: 1 } })).toBe(false)
  })
})
