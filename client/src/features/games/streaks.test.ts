import { describe, expect, it } from 'vitest'
import { currentStreaks } from './streaks'

const d = (big_small: string, odd_even: string) => ({ labels: { big_small, odd_even } })

describe('the streak board', () => {
  it('counts the run of each attribute back from the latest draw, longest first', () => {
    // Newest first: big three times in a row, then small; odd only once.
    const draws = [d('big', 'odd'), d('big', 'even'), d('big', 'even'), d('small', 'even')]
    expect(currentStreaks(draws)).toEqual([
      { attribute: 'big_small', name: '大小', label: 'big', count: 3, open: false },
      { attribute: 'odd_even', name: '单双', label: 'odd', count: 1, open: false },
    ])
  })

  it('marks a run that reaches past the oldest draw given as open, and has nothing without draws', () => {
    expect(currentStreaks([d('small', 'odd'), d('small', 'even')])[0]).toMatchObject({
      label: 'small',
      count: 2,
      open: true,
    })
    expect(currentStreaks([])).toEqual([])
  })

  it('names the racing game’s numbered dragon/tiger attributes', () => {
    expect(currentStreaks([{ labels: { dragon_tiger_3: 'dragon' } }])[0]?.name).toBe('龙虎（第3名）')
  })
})
