import { describe, expect, it } from 'vitest'
import { betTarget, isNewDraw, MIN_CONFIRM_MS, type Round, roundsAhead, sheetTarget } from './use-round'

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

describe('the round the bet sheet opens on', () => {
  it('is the earliest round with time enough to confirm before its sealing', () => {
    // 5 s before the current round seals: that one.
    expect(sheetTarget(round, 5_000, 0)?.round.round_id).toBe('100')
    // 2 s before: the next round, 5 s from its sealing.
    expect(sheetTarget(round, 8_000, 0)).toEqual({ round: round.next, msToSeal: 5_000 })
    // The current round sealed and the next one seals in 2.5 s: the block after it.
    const after = sheetTarget(round, 10_500, 0)
    expect(after?.round).toMatchObject({ round_id: '102', height: 102, seal_at: 16_000, draw_at: 17_000 })
    expect(after?.msToSeal).toBeGreaterThanOrEqual(MIN_CONFIRM_MS)
  })

  it('reads the clock on server time', () => {
    // The device runs 3 s behind: at device 5 000 the server is at 8 000.
    expect(sheetTarget(round, 5_000, 3_000)?.round.round_id).toBe('101')
  })

  it('never makes up a third round for lottery games, whose issue numbers are not heights', () => {
    const lottery: Round = {
      ...round,
      game: 'kuaisan',
      round_id: '202611220721',
      height: 200,
      next: { game: 'kuaisan', round_id: '202611220722', height: 220, seal_at: 70_000, draw_at: 73_000 },
    }
    expect(roundsAhead(lottery).map((r) => r.round_id)).toEqual(['202611220721', '202611220722'])
    // Hash size: heights a minute apart, the third round one more minute on.
    const hassize: Round = {
      ...round,
      game: 'hassize',
      round_id: '200',
      height: 200,
      next: { game: 'hassize', round_id: '220', height: 220, seal_at: 70_000, draw_at: 73_000 },
    }
    expect(roundsAhead(hassize).at(-1)).toMatchObject({ round_id: '240', seal_at: 70_000 + 62_000 })
  })
})
