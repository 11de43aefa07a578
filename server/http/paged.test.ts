import { describe, expect, it } from 'vitest'
import { pagedAnswer } from './paged'

describe('pagedAnswer', () => {
  it('has more only while rows follow the last one on this page', () => {
    expect(pagedAnswer([1, 2], 1, 2, 5).has_more).toBe(true)
    expect(pagedAnswer([5], 3, 2, 5).has_more).toBe(false)
    expect(pagedAnswer([3, 4], 2, 2, 4).has_more).toBe(false)
    // A page past the end is empty and has nothing after it.
    expect(pagedAnswer([], 9, 2, 5)).toEqual({ list: [], page: 9, page_size: 2, total: 5, has_more: false })
  })
})
