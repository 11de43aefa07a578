import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { betKindsOf, oppositeOf } from './bet-types'
import { GAME_CODES, milliToOdds, oddsToMilli } from './config'
import { charValue, hashDigit, hashDigits, isLucky } from './hash-reading'
import {
  drawBalls,
  drawCars,
  drawDice,
  drawOutcome,
  FLOATS_NEEDED,
  hassizeOutcome,
  kuaisanOutcome,
  payoutMicro,
  qukuaiOutcome,
  saicheOutcome,
  settleBet,
  settlerFor,
  shishicaiOutcome,
  UnknownBetTypeError,
} from './outcome'
import { fixtureConfig } from './test-config'

const cfg = fixtureConfig()
const hex64 = fc.stringMatching(/^[0-9a-f]{64}$/).filter((h) => /\d/.test(h))
const s = (game: Parameters<typeof settleBet>[0], type: string, o: ReturnType<typeof qukuaiOutcome>) =>
  settleBet(game, type, o, cfg)

describe('block game settlement', () => {
  const vector = qukuaiOutcome('0000000005f5e100ff04c02e43c69f29cd97bdd469a12b0d171a09b933ec36e5')
  it('settles the test-vector block', () => {
    expect(vector.labels).toEqual({
      big_small: 'big',
      odd_even: 'odd',
      lucky: 'lucky',
      banker_player: 'player',
    })
    expect(['big', 'odd', 'lucky', 'player'].map((t) => s('qukuai', t, vector))).toEqual([
      'won',
      'won',
      'won',
      'won',
    ])
    expect(['small', 'even', 'unlucky', 'banker', 'tie'].map((t) => s('qukuai', t, vector))).toEqual([
      'lost',
      'lost',
      'lost',
      'lost',
      'lost',
    ])
    // Each bet type settles by its own rule: here unlucky wins ("77", two digits) while banker
    // (1 + 2 = 3) loses to player (7 + 7 = 4), and lucky loses while player wins. (This test is the
    // first to ask for these settlers, which are kept: it checks them on two draws.)
    const other = qukuaiOutcome(`${'0'.repeat(59)}12a77`)
    expect(
      ['lucky', 'unlucky', 'banker', 'player', 'tie', 'big', 'small', 'odd', 'even'].map((t) =>
        s('qukuai', t, other),
      ),
    ).toEqual(['lost', 'won', 'lost', 'won', 'lost', 'won', 'lost', 'won', 'lost'])
  })

  it('refunds banker and player on a tie and pays the tie', () => {
    // last five "37a19": banker 3 + 7 = 0, player 1 + 9 = 0.
    const o = qukuaiOutcome(`${'0'.repeat(59)}37a19`)
    expect(o.numbers).toEqual([9, 0, 0])
    expect(s('qukuai', 'banker', o)).toBe('draw')
    expect(s('qukuai', 'player', o)).toBe('draw')
    expect(s('qukuai', 'tie', o)).toBe('won')
  })

  it('skips letters for the hash digit and reads letters as 0 for points', () => {
    const o = qukuaiOutcome(`${'0'.repeat(56)}12345fab`)
    expect(o.numbers[0]).toBe(5)
    expect(o.labels.lucky).toBe('unlucky') // "ab": two letters
    expect(qukuaiOutcome(`${'0'.repeat(62)}77`).labels.lucky).toBe('unlucky')
    expect(qukuaiOutcome(`${'0'.repeat(62)}7c`).labels.lucky).toBe('lucky')
  })

  it('always has exactly one winner per pair, and banker/player/tie agree', () => {
    fc.assert(
      fc.property(hex64, (hash) => {
        const o = qukuaiOutcome(hash)
        for (const [a, b] of [
          ['big', 'small'],
          ['odd', 'even'],
          ['lucky', 'unlucky'],
        ] as const)
          expect([s('qukuai', a, o), s('qukuai', b, o)].sort()).toEqual(['lost', 'won'])
        const d = hashDigit(hash)
        expect(s('qukuai', 'big', o)).toBe(d >= 5 ? 'won' : 'lost')
        const bp = [s('qukuai', 'banker', o), s('qukuai', 'player', o), s('qukuai', 'tie', o)]
        expect(bp.filter((r) => r === 'won')).toHaveLength(1)
        if (bp[2] === 'won') expect(bp.slice(0, 2)).toEqual(['draw', 'draw'])
      }),
    )
  })
})

describe('hash size settlement', () => {
  it('sums the hash digit and the next digit to its left mod 10, skipping letters', () => {
    const o = hassizeOutcome(`${'0'.repeat(60)}8ab7`)
    expect(o.numbers).toEqual([7, 8, 5])
    expect(['big', 'odd', 'sum_big', 'sum_odd'].map((t) => s('hassize', t, o))).toEqual([
      'won',
      'won',
      'won',
      'won',
    ])
    expect(['small', 'even', 'sum_small', 'sum_even'].map((t) => s('hassize', t, o))).toEqual([
      'lost',
      'lost',
      'lost',
      'lost',
    ])
  })
})

describe('fast three settlement', () => {
  const o = (d: number[]) => kuaisanOutcome(d)
  it('pays sums, triples, straights, pairs and two numbers', () => {
    expect(s('kuaisan', 'sum_8', o([2, 3, 3]))).toBe('won')
    expect(s('kuaisan', 'small', o([2, 3, 3]))).toBe('won')
    expect(s('kuaisan', 'pair_3', o([2, 3, 3]))).toBe('won')
    expect(s('kuaisan', 'pair_3', o([3, 3, 3]))).toBe('lost') // triples excluded
    expect(s('kuaisan', 'two_2_3', o([2, 3, 3]))).toBe('won')
    expect(s('kuaisan', 'two_1_3', o([2, 3, 3]))).toBe('lost')
    expect(s('kuaisan', 'any_straight', o([4, 2, 3]))).toBe('won')
    expect(s('kuaisan', 'any_straight', o([1, 2, 4]))).toBe('lost')
    expect(s('kuaisan', 'any_triple', o([5, 5, 5]))).toBe('won')
    expect(s('kuaisan', 'triple_5', o([5, 5, 5]))).toBe('won')
    expect(s('kuaisan', 'triple_4', o([5, 5, 5]))).toBe('lost')
  })

  it('lets a triple win big/small unless the fixture flag says otherwise', () => {
    expect(s('kuaisan', 'big', o([6, 6, 6]))).toBe('won')
    const voiding = {
      ...cfg,
      games: { ...cfg.games, kuaisan: { ...cfg.games.kuaisan, triple_voids_big_small: true } },
    }
    expect(settleBet('kuaisan', 'big', o([6, 6, 6]), voiding)).toBe('lost')
    expect(settleBet('kuaisan', 'big', o([6, 6, 5]), voiding)).toBe('won')
  })
})

describe('time-time colour settlement', () => {
  const o = shishicaiOutcome([8, 2, 3, 4, 0])
  it('settles balls, the sum and dragon/tiger/tie', () => {
    expect(
      ['b1_big', 'b1_even', 'b1_d8', 'b5_small', 'sum_small', 'sum_odd', 'dragon'].map((t) =>
        s('shishicai', t, o),
      ),
    ).toEqual(Array(7).fill('won'))
    expect(['b1_small', 'b1_d7', 'sum_big', 'tiger', 'tie'].map((t) => s('shishicai', t, o))).toEqual(
      Array(5).fill('lost'),
    )
  })
  it('makes dragon and tiger lose on a tie', () => {
    const tie = shishicaiOutcome([4, 9, 9, 9, 4])
    expect([s('shishicai', 'dragon', tie), s('shishicai', 'tiger', tie), s('shishicai', 'tie', tie)]).toEqual(
      ['lost', 'lost', 'won'],
    )
  })
})

describe('racing settlement', () => {
  const o = saicheOutcome([4, 5, 9, 8, 7, 6, 3, 10, 1, 2])
  it('settles positions, dragon/tiger and the top-two sum', () => {
    // top two 4 + 5 = 9: small, odd. p1 4 vs p10 2: dragon. p5 7 vs p6 6: dragon.
    expect(
      [
        'top2_small',
        'top2_odd',
        'p1_small',
        'p1_even',
        'p1_c4',
        'p1_dragon',
        'p3_big',
        'p5_dragon',
        'p8_big',
      ].map((t) => s('saiche', t, o)),
    ).toEqual(Array(9).fill('won'))
    expect(['top2_big', 'p1_big', 'p1_c5', 'p2_tiger', 'p10_c1'].map((t) => s('saiche', t, o))).toEqual(
      Array(5).fill('lost'),
    )
  })
  it('refuses dragon/tiger beyond position 5 and unknown types', () => {
    expect(() => s('saiche', 'p6_dragon', o)).toThrow(UnknownBetTypeError)
    expect(() => s('qukuai', 'huge', qukuaiOutcome('0'.repeat(64)))).toThrow(UnknownBetTypeError)
  })
})

describe('every bet type', () => {
  it('settles without error for random draws, and both sides of a pair never both win', () => {
    fc.assert(
      fc.property(
        hex64,
        fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), {
          minLength: 10,
          maxLength: 10,
        }),
        (hash, floats) => {
          for (const game of GAME_CODES) {
            const o = drawOutcome(game, hash, floats)
            for (const { type } of betKindsOf(game)) {
              const r = settleBet(game, type, o, cfg)
              const other = oppositeOf(type)
              if (r === 'won' && other) expect(settleBet(game, other, o, cfg)).not.toBe('won')
            }
          }
        },
      ),
      { numRuns: 30 },
    )
  })

  it('names opposite sides', () => {
    expect(oppositeOf('big')).toBe('small')
    expect(oppositeOf('b3_odd')).toBe('b3_even')
    expect(oppositeOf('p2_tiger')).toBe('p2_dragon')
    expect(oppositeOf('banker')).toBe('player')
    expect(oppositeOf('tie')).toBeNull()
    expect(oppositeOf('lucky')).toBeNull()
    expect(oppositeOf('sum_8')).toBeNull()
  })
})

describe('payouts', () => {
  it('pays stake × odds exactly, rounded down to the micro-unit', () => {
    expect(payoutMicro('won', 100_000_000, 1950)).toBe(195_000_000)
    expect(payoutMicro('won', 1, 1950)).toBe(1) // 1.95 micro → 1
    expect(payoutMicro('won', 3_333_333, 7870)).toBe(26_233_330)
    expect(payoutMicro('draw', 5_000_000, 1950)).toBe(5_000_000)
    expect(payoutMicro('lost', 5_000_000, 1950)).toBe(0)
  })
  it('never pays more than the exact product nor a micro-unit less', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000_000 }),
        fc.integer({ min: 1000, max: 189_000 }),
        (stake, odds) => {
          const p = payoutMicro('won', stake, odds)
          expect(BigInt(p) * 1000n <= BigInt(stake) * BigInt(odds)).toBe(true)
          expect(BigInt(p + 1) * 1000n > BigInt(stake) * BigInt(odds)).toBe(true)
        },
      ),
    )
  })
  it('reads odds as exact thousandths', () => {
    expect(oddsToMilli('1.982')).toBe(1982)
    expect(oddsToMilli('31.5')).toBe(31_500)
    expect(oddsToMilli('8')).toBe(8000)
    expect(milliToOdds(7870)).toBe('7.87')
    expect(milliToOdds(8000)).toBe('8')
  })
})

describe('draws and their labels at the edges', () => {
  it('turns floats into dice, balls and cars', () => {
    expect(drawDice([0, 1 / 6, 0.999_999, 0.5])).toEqual([1, 2, 6])
    expect(drawBalls([0, 0.1, 0.55, 0.999_999, 0.3, 0.9])).toEqual([0, 1, 5, 9, 3])
    expect(drawCars(Array.from({ length: 10 }, () => 0))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    expect(drawCars(Array.from({ length: 10 }, () => 0.999_999))).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1])
    expect(() => drawCars([0, 0, 0])).toThrow('racing needs 10 floats')
    expect(() => drawCars([1, 0, 0, 0, 0, 0, 0, 0, 0, 0])).toThrow('float out of range')
  })

  it('labels fast three at sum 11 big, 10 small', () => {
    expect(kuaisanOutcome([3, 4, 4]).labels).toEqual({ big_small: 'big', odd_even: 'odd' })
    expect(kuaisanOutcome([2, 4, 4]).labels).toEqual({ big_small: 'small', odd_even: 'even' })
  })

  it('labels hash size by its digit and the sum with the digit to its left, 5 and up big', () => {
    expect(hassizeOutcome(`${'a'.repeat(62)}05`)).toEqual({
      numbers: [5, 0, 5],
      labels: { big_small: 'big', odd_even: 'odd', sum_big_small: 'big', sum_odd_even: 'odd' },
    })
    expect(hassizeOutcome(`${'a'.repeat(62)}94`)).toEqual({
      numbers: [4, 9, 3],
      labels: { big_small: 'small', odd_even: 'even', sum_big_small: 'small', sum_odd_even: 'odd' },
    })
  })

  it('labels time-time colour at sum 23 big, 22 small, and dragon, tiger or tie', () => {
    expect(shishicaiOutcome([9, 9, 5, 0, 0]).labels).toEqual({
      sum_big_small: 'big',
      sum_odd_even: 'odd',
      dragon_tiger: 'dragon',
    })
    expect(shishicaiOutcome([0, 9, 4, 0, 9]).labels).toEqual({
      sum_big_small: 'small',
      sum_odd_even: 'even',
      dragon_tiger: 'tiger',
    })
    expect(shishicaiOutcome([3, 0, 0, 0, 3]).labels.dragon_tiger).toBe('tie')
  })

  it('draws each game from its own source', () => {
    const floats = Array.from({ length: 10 }, (_, i) => i / 10)
    const hash = `${'0'.repeat(58)}c36e5`.padStart(64, '0')
    expect(drawOutcome('qukuai', hash, floats)).toEqual(qukuaiOutcome(hash))
    expect(drawOutcome('hassize', hash, floats)).toEqual(hassizeOutcome(hash))
    expect(drawOutcome('kuaisan', hash, floats)).toEqual(kuaisanOutcome(drawDice(floats)))
    expect(drawOutcome('shishicai', hash, floats)).toEqual(shishicaiOutcome(drawBalls(floats)))
    expect(drawOutcome('saiche', hash, floats)).toEqual(saicheOutcome(drawCars(floats)))
  })

  it('refuses bet types that are nearly right', () => {
    const cfg = fixtureConfig()
    for (const [game, type] of [
      ['kuaisan', 'sum_2'],
      ['kuaisan', 'sum_19'],
      ['kuaisan', 'xsum_3'],
      ['kuaisan', 'sum_3x'],
      ['kuaisan', 'xtriple_1'],
      ['kuaisan', 'triple_1x'],
      ['kuaisan', 'xpair_1'],
      ['kuaisan', 'pair_1x'],
      ['kuaisan', 'two_2_1'],
      ['kuaisan', 'two_2_2'],
      ['kuaisan', 'xtwo_1_2'],
      ['kuaisan', 'two_1_2x'],
      ['shishicai', 'xb1_big'],
      ['shishicai', 'b6_big'],
      ['shishicai', 'b1_x'],
    ] as const) {
      expect(() => settlerFor(game, type, cfg), `${game}.${type}`).toThrow(UnknownBetTypeError)
    }
  })
})

describe('reading a hash', () => {
  it('takes decimal digits from the right, skipping letters and refusing too few', () => {
    expect(hashDigits('12a3', 2)).toEqual([3, 2])
    expect(hashDigits('12a3', 3)).toEqual([3, 2, 1])
    expect(() => hashDigits('12a3', 4)).toThrow('hash has fewer than 4 decimal digits')
    expect(() => hashDigit('abcdef')).toThrow(RangeError)
    // The characters next to 0 and 9 in ASCII are not digits.
    expect(['/', '0', '9', ':'].map(charValue)).toEqual([0, 0, 9, 0])
    expect(hashDigits('/9:', 1)).toEqual([9])
    expect(isLucky('…/0')).toBe(true)
    expect(isLucky('…9:')).toBe(true)
  })
})

describe('the labels a draw is shown with', () => {
  it('block game: banker, player or tie by the points', () => {
    // last five "5a1b2": banker 5 + 0 = 5, player 0 + 2 = 2.
    expect(qukuaiOutcome(`${'0'.repeat(59)}5a1b2`)).toEqual({
      numbers: [2, 5, 2],
      labels: { big_small: 'small', odd_even: 'even', lucky: 'lucky', banker_player: 'banker' },
    })
    // banker 1 + 2 = 3, player 1 + 2 = 3.
    expect(qukuaiOutcome(`${'0'.repeat(59)}12012`).labels.banker_player).toBe('tie')
    // banker 0 + 1 = 1, player 9 + 3 = 2.
    expect(qukuaiOutcome(`${'0'.repeat(59)}01f93`).labels.banker_player).toBe('player')
  })

  it('racing: the top-two sum, 12 and up big, and dragon or tiger for positions 1–5 against 10–6', () => {
    expect(saicheOutcome([5, 7, 1, 10, 2, 9, 3, 8, 4, 6])).toEqual({
      numbers: [5, 7, 1, 10, 2, 9, 3, 8, 4, 6],
      labels: {
        top2_big_small: 'big',
        top2_odd_even: 'even',
        dragon_tiger_1: 'tiger',
        dragon_tiger_2: 'dragon',
        dragon_tiger_3: 'tiger',
        dragon_tiger_4: 'dragon',
        dragon_tiger_5: 'tiger',
      },
    })
    expect(saicheOutcome([4, 7, 9, 1, 10, 2, 3, 8, 5, 6]).labels).toEqual({
      top2_big_small: 'small',
      top2_odd_even: 'odd',
      dragon_tiger_1: 'tiger',
      dragon_tiger_2: 'dragon',
      dragon_tiger_3: 'dragon',
      dragon_tiger_4: 'tiger',
      dragon_tiger_5: 'dragon',
    })
  })
})

describe('settling at the edges of each rule', () => {
  it('block game: banker and player are refunded only on equal points, and win or lose otherwise', () => {
    const bankerAhead = qukuaiOutcome(`${'0'.repeat(59)}5a1b2`)
    expect(['banker', 'player', 'tie'].map((t) => s('qukuai', t, bankerAhead))).toEqual([
      'won',
      'lost',
      'lost',
    ])
    const playerAhead = qukuaiOutcome(`${'0'.repeat(59)}01f93`)
    expect(['banker', 'player', 'tie'].map((t) => s('qukuai', t, playerAhead))).toEqual([
      'lost',
      'won',
      'lost',
    ])
  })

  it('racing: a car of 6 and up is big, a top-two sum of 12 and up', () => {
    const o = saicheOutcome([6, 5, 1, 10, 2, 9, 3, 8, 4, 7])
    expect(['p1_big', 'p1_small', 'p2_big', 'p2_small'].map((t) => s('saiche', t, o))).toEqual([
      'won',
      'lost',
      'lost',
      'won',
    ])
    // 6 + 5 = 11: small, odd.
    expect(['top2_big', 'top2_small', 'top2_odd', 'top2_even'].map((t) => s('saiche', t, o))).toEqual([
      'lost',
      'won',
      'won',
      'lost',
    ])
    const twelve = saicheOutcome([5, 7, 1, 10, 2, 9, 3, 8, 4, 6])
    expect(['top2_big', 'top2_small'].map((t) => s('saiche', t, twelve))).toEqual(['won', 'lost'])
    // Tiger: position 1 (5) behind position 10 (6); dragon: position 2 (7) ahead of position 9 (4).
    expect(['p1_dragon', 'p1_tiger', 'p2_dragon', 'p2_tiger'].map((t) => s('saiche', t, twelve))).toEqual([
      'lost',
      'won',
      'won',
      'lost',
    ])
    expect(['p10_c6', 'p10_c5', 'p10_big', 'p4_c10', 'p9_c4'].map((t) => s('saiche', t, twelve))).toEqual([
      'won',
      'lost',
      'won',
      'won',
      'won',
    ])
  })

  it('time-time colour: a ball of 5 and up is big, a sum of 23 and up', () => {
    // Sum 5 + 4 + 9 + 5 + 0 = 23.
    const o = shishicaiOutcome([5, 4, 9, 5, 0])
    expect(
      ['b1_big', 'b1_small', 'b2_big', 'b2_small', 'b4_odd', 'b5_even'].map((t) => s('shishicai', t, o)),
    ).toEqual(['won', 'lost', 'lost', 'won', 'won', 'won'])
    expect(['sum_big', 'sum_small', 'sum_odd', 'sum_even'].map((t) => s('shishicai', t, o))).toEqual([
      'won',
      'lost',
      'won',
      'lost',
    ])
    // Ball 1 behind ball 5: tiger.
    expect(
      ['dragon', 'tiger', 'tie'].map((t) => s('shishicai', t, shishicaiOutcome([1, 0, 0, 0, 9]))),
    ).toEqual(['lost', 'won', 'lost'])
    // Sum 22.
    const small = shishicaiOutcome([5, 4, 8, 5, 0])
    expect(['sum_big', 'sum_small'].map((t) => s('shishicai', t, small))).toEqual(['lost', 'won'])
    expect(['b3_d8', 'b3_d9', 'b5_d0', 'tiger', 'dragon'].map((t) => s('shishicai', t, small))).toEqual([
      'won',
      'lost',
      'won',
      'lost',
      'won',
    ])
  })

  it('fast three: sums 3 and 18, straights, triples and big/small under the triple rule', () => {
    const k = (d: number[]) => kuaisanOutcome(d)
    expect(s('kuaisan', 'sum_3', k([1, 1, 1]))).toBe('won')
    expect(s('kuaisan', 'sum_18', k([6, 6, 6]))).toBe('won')
    expect(s('kuaisan', 'sum_18', k([6, 6, 5]))).toBe('lost')
    expect(s('kuaisan', 'any_straight', k([1, 3, 4]))).toBe('lost')
    expect(s('kuaisan', 'any_straight', k([6, 5, 4]))).toBe('won')
    expect(s('kuaisan', 'any_triple', k([2, 3, 3]))).toBe('lost')
    expect(s('kuaisan', 'any_triple', k([3, 3, 2]))).toBe('lost')
    expect(s('kuaisan', 'triple_5', k([5, 5, 4]))).toBe('lost')
    expect(s('kuaisan', 'two_1_6', k([6, 2, 1]))).toBe('won')
    expect(s('kuaisan', 'two_1_6', k([6, 2, 2]))).toBe('lost')
    expect(s('kuaisan', 'two_1_6', k([1, 2, 2]))).toBe('lost')
    expect(['odd', 'even'].map((t) => s('kuaisan', t, k([1, 1, 1])))).toEqual(['won', 'lost'])
    expect(['big', 'small'].map((t) => s('kuaisan', t, k([1, 1, 1])))).toEqual(['lost', 'won'])
    const voiding = {
      games: { kuaisan: { triple_voids_big_small: true } },
    }
    expect(['big', 'small', 'odd'].map((t) => settleBet('kuaisan', t, k([1, 1, 1]), voiding))).toEqual([
      'lost',
      'lost',
      'won',
    ])
    expect(settleBet('kuaisan', 'small', k([1, 1, 2]), voiding)).toBe('won')
  })

  it('hash size: the sum bets read the sum, the plain ones the digit', () => {
    // Digit 2, the next digit 3: sum 5.
    const o = hassizeOutcome(`${'0'.repeat(60)}3ab2`)
    expect(
      ['big', 'small', 'even', 'sum_big', 'sum_small', 'sum_odd'].map((t) => s('hassize', t, o)),
    ).toEqual(['lost', 'won', 'won', 'won', 'lost', 'won'])
  })
})

describe('bet types refused at the edges of what each game reads', () => {
  it('racing: positions 1–10, cars 1–10, dragon and tiger for 1–5 only, whole words', () => {
    for (const type of [
      'p0_big',
      'p11_big',
      'p100_big',
      'xp1_big',
      'p1_x',
      'p1_c0',
      'p1_c11',
      'p1_xc1',
      'p1_c1x',
      'p1_c',
      'p6_tiger',
      'p1_dragonx',
      'top2_x',
      'top2_',
    ]) {
      expect(() => settlerFor('saiche', type, cfg), type).toThrow(UnknownBetTypeError)
    }
    for (const type of ['p10_big', 'p10_c10', 'p5_tiger', 'p1_c10'])
      expect(() => settlerFor('saiche', type, cfg), type).not.toThrow()
  })

  it('time-time colour: balls 1–5, digits 0–9 one at a time, whole words', () => {
    for (const type of ['b0_big', 'b1_d10', 'b1_xd1', 'b1_d', 'b1_dx', 'b1_', 'sum_x', 'dragonx', 'xtie'])
      expect(() => settlerFor('shishicai', type, cfg), type).toThrow(UnknownBetTypeError)
    for (const type of ['b5_d9', 'b1_d0', 'b5_even'])
      expect(() => settlerFor('shishicai', type, cfg), type).not.toThrow()
  })

  it('hash size and the block game: their sides only', () => {
    for (const type of ['sum_', 'sum_lucky', 'lucky', 'xsum_big', 'tie'])
      expect(() => settlerFor('hassize', type, cfg), type).toThrow(UnknownBetTypeError)
    for (const type of ['sum_big', 'dragon', 'p1_big'])
      expect(() => settlerFor('qukuai', type, cfg), type).toThrow(UnknownBetTypeError)
  })

  it('says which game and which type it does not know', () => {
    const refused = (() => {
      try {
        settlerFor('saiche', 'p11_big', cfg)
      } catch (e) {
        return e
      }
      return null
    })()
    expect(refused).toBeInstanceOf(UnknownBetTypeError)
    expect(refused).toMatchObject({
      name: 'UnknownBetTypeError',
      message: 'saiche: unknown bet type p11_big',
    })
  })

  it('says which value a draw lacks, rather than settling on a missing one', () => {
    expect(() => s('shishicai', 'b5_big', shishicaiOutcome([1, 2, 3]))).toThrow(
      new RangeError('outcome has no value at 4'),
    )
  })
})

describe('settlers', () => {
  it('are parsed once per bet type and rules, and asked again give the same one', () => {
    const first = settlerFor('saiche', 'p3_c7', cfg)
    expect(settlerFor('saiche', 'p3_c7', cfg)).toBe(first)
    expect(settlerFor('saiche', 'p3_c8', cfg)).not.toBe(first)
    const voiding = { games: { kuaisan: { triple_voids_big_small: true } } }
    const plain = settlerFor('kuaisan', 'big', cfg)
    const voided = settlerFor('kuaisan', 'big', voiding)
    expect(settlerFor('kuaisan', 'big', voiding)).toBe(voided)
    expect([plain, voided].map((settle) => settle(kuaisanOutcome([6, 6, 6])))).toEqual(['won', 'lost'])
  })

  it('need these many lottery floats per game', () => {
    expect(FLOATS_NEEDED).toEqual({ qukuai: 0, hassize: 0, kuaisan: 3, shishicai: 5, saiche: 10 })
  })
})
