import { describe, expect, it } from 'vitest'
import { betTarget, isNewDraw, type Round } from './use-round'

const round: Round = {
  game: 'qukuai',
  round_id: '100',
  height: 100,
  seal_at: 10_000,
  draw_at: 11_000,
  server_time: 8_000,
  ms_to_seal: 2_000,
  ms_to_draw: 3_000,
  state: 'OPEN',
  next: { game: 'qukuai', round_id: '101', height: 101, seal_at: 13_000, draw_at: 14_000 },
  previous: null,
}

describe('where a bet placed now goes', () => {
  it('goes to the current round while it is open, with the time left to its sealing', () => {
    expect(betTarget(round, false, 9_000, 0)).toEqual({ round: round, msToSeal: 1_000 })
  })

  it('goes to the next round once the current one is sealed, never silently to a closed one', () => {
    expect(betTarget(round, true, 10_500, 0)?.round.round_id).toBe('101')
    // The device clock runs 1 s behind the server's: the offset puts it right.
    expect(betTarget(round, true, 11_500, 1_000)?.msToSeal).toBe(500)
    // The next round sealed too before the page fetched again: nowhere to go until it does.
    expect(betTarget(round, true, 13_000, 0)).toBeNull()
  })
})

describe('a new draw', () => {
  it('is announced on every change after the first fetch, the first draw of a game included', () => {
    expect(isNewDraw(undefined, '100')).toBe(false)
    expect(isNewDraw('100', '100')).toBe(false)
    expect(isNewDraw('100', '101')).toBe(true)
    expect(isNewDraw(null, '100')).toBe(true)
    expect(isNewDraw(null, null)).toBe(false)
  })
})
