import { describe, expect, it } from 'vitest'
import { type BigRoad, beadPlate, bigRoad, countLabels } from './roadmap'

/** A road as hand-drawn text rows: one character per cell (first letter, upper case), "." for empty. */
function draw(road: BigRoad, cols = 6): string[] {
  const rows: string[] = []
  for (let r = 0; r < 6; r++) {
    let line = ''
    for (let c = 0; c < cols; c++) line += road.columns[c]?.[r]?.label[0]?.toUpperCase() ?? '.'
    rows.push(line)
  }
  return rows
}

const seq = (s: string) =>
  s.split('').map((ch) => ({ B: 'banker', P: 'player', T: 'tie', b: 'big', s: 'small' })[ch] ?? ch)

describe('bead plate (6 × 11)', () => {
  it('fills top to bottom, then the next column, ties included', () => {
    const grid = beadPlate(seq('BBPTPBBP'))
    expect(grid).toHaveLength(11)
    expect(grid[0]).toEqual(['banker', 'banker', 'player', 'tie', 'player', 'banker'])
    expect(grid[1]).toEqual(['banker', 'player', null, null, null, null])
    expect(grid[2]).toEqual(Array(6).fill(null))
  })

  it('drops the oldest whole column when full', () => {
    const labels = Array.from({ length: 67 }, (_, i) => String(i))
    const grid = beadPlate(labels)
    expect(grid[0]).toEqual(['6', '7', '8', '9', '10', '11'])
    expect(grid[10]).toEqual(['66', null, null, null, null, null])
    expect(beadPlate(labels.slice(0, 66))[0]?.[0]).toBe('0')
  })
})

describe('big road (columns of 6, 22 shown)', () => {
  it('steps down for a repeat and starts a new column on a change', () => {
    expect(draw(bigRoad(seq('BBPPPB')))).toEqual([
      'BPB...', //
      'BP....',
      '.P....',
      '......',
      '......',
      '......',
    ])
  })

  it('turns right at row 6: the dragon tail', () => {
    expect(draw(bigRoad(seq('BBBBBBBBP')))).toEqual([
      'BP....', //
      'B.....',
      'B.....',
      'B.....',
      'B.....',
      'BBB...',
    ])
  })

  it('turns right when the cell below is taken: the L-turn', () => {
    // 7 bankers tail right along row 6 into column 1; the player run in column 1 then stops
    // above that tail at row 5 and turns right along row 5, and keeps going right.
    expect(draw(bigRoad(seq('BBBBBBBPPPPPPP')))).toEqual([
      'BP....', //
      'BP....',
      'BP....',
      'BP....',
      'BPPP..',
      'BB....',
    ])
    // The next new label starts at the top of column 2, just right of the player run's start.
    expect(draw(bigRoad(seq('BBBBBBBPPPPPPPBB')))).toEqual([
      'BPB...', //
      'BPB...',
      'BP....',
      'BP....',
      'BPPP..',
      'BB....',
    ])
  })

  it('adds ties to the last cell, and holds ties before the first result for the first cell', () => {
    const road = bigRoad(seq('TTBTPTT'))
    expect(road.columns[0]?.[0]).toEqual({ label: 'banker', ties: 3 })
    expect(road.columns[1]?.[0]).toEqual({ label: 'player', ties: 2 })
    const onlyTies = bigRoad(seq('TT'))
    expect(onlyTies.heldTies).toBe(2)
    expect(onlyTies.width).toBe(0)
  })

  it('keeps the newest 22 columns in view when it overflows', () => {
    const labels = Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? 'big' : 'small'))
    const road = bigRoad(labels)
    expect(road.width).toBe(30)
    expect(road.offset).toBe(8)
    expect(road.columns).toHaveLength(22)
    expect(road.columns[21]?.[0]).toEqual({ label: 'small', ties: 0 })
    expect(road.columns[0]?.[0]).toEqual({ label: 'big', ties: 0 })
  })

  it('counts labels', () => {
    expect(countLabels(seq('BBPT'))).toEqual({ banker: 2, player: 1, tie: 1 })
  })
})
