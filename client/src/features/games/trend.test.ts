import { describe, expect, it } from 'vitest'
import { attributeName, attributesOf, labelColour, labelsOf, myLabels } from './trend'

describe('trend', () => {
  it('colours labels as docs/game-rules.md#result-grids says', () => {
    expect(['banker', 'big', 'odd', 'lucky'].map(labelColour)).toEqual(['red', 'red', 'red', 'red'])
    expect(['player', 'small', 'even', 'unlucky'].map(labelColour)).toEqual(['blue', 'blue', 'blue', 'blue'])
    expect(labelColour('tie')).toBe('green')
  })

  it('reads one attribute oldest first from draws listed newest first', () => {
    const draws = [
      { labels: { big_small: 'big', odd_even: 'odd' } },
      { labels: { big_small: 'small', odd_even: 'odd' } },
    ]
    expect(attributesOf(draws)).toEqual(['big_small', 'odd_even'])
    expect(labelsOf(draws, 'big_small')).toEqual(['small', 'big'])
    expect(attributeName('dragon_tiger_3')).toBe('龙虎（第3名）')
  })

  it("turns the player's settled bets into labels, skipping pending ones", () => {
    expect(
      myLabels([{ status: 'pending' }, { status: 'draw' }, { status: 'lost' }, { status: 'won' }]),
    ).toEqual(['won', 'lost', 'tie'])
  })
})
