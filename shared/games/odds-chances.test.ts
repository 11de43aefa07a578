import { describe, expect, it } from 'vitest'
import { gamesConfigSchema } from './config'
import { type Chance, chancesOf, oddsMilliFor, pricedBets } from './odds'
import { fixtureConfig } from './test-config'

/**
 * The exact chances of every game, each checked by the test that first works them out. The odds
 * module keeps what it has worked out, so a test that only reads kept values would not see a
 * mistake in the enumeration: here each game is enumerated inside the test that checks it.
 */

const cfg = fixtureConfig()
const wins = (c: Map<string, Chance>) => [...c.values()].reduce((a, x) => a + x.win, 0)
const winOf = (c: Map<string, Chance>, types: string[]) => types.map((t) => c.get(t)?.win)

describe('exact chances', () => {
  it('block game: over 16⁵ × 10 weighted hashes', () => {
    const c = chancesOf('qukuai', cfg)
    // Worked out once: asked again, the same.
    expect(chancesOf('qukuai', cfg)).toBe(c)
    expect([...c.keys()]).toEqual([
      'big',
      'small',
      'odd',
      'even',
      'lucky',
      'unlucky',
      'banker',
      'player',
      'tie',
    ])
    expect([...c.values()].every((x) => x.total === 10_485_760)).toBe(true)
    expect(Object.fromEntries([...c].map(([t, x]) => [t, [x.win, x.draw]]))).toEqual({
      big: [5_242_880, 0],
      small: [5_242_880, 0],
      odd: [5_242_880, 0],
      even: [5_242_880, 0],
      lucky: [4_915_200, 0],
      unlucky: [5_570_560, 0],
      banker: [4_625_280, 1_235_200],
      player: [4_625_280, 1_235_200],
      tie: [1_235_200, 0],
    })
  })

  it('hash size: every side one half, over 100 digit pairs', () => {
    const c = chancesOf('hassize', cfg)
    // Kept per game and rules, not per configuration object.
    expect(chancesOf('hassize', fixtureConfig())).toBe(c)
    expect([...c.values()]).toEqual(Array.from({ length: 8 }, () => ({ win: 50, draw: 0, total: 100 })))
  })

  it('fast three: over 216 throws', () => {
    const c = chancesOf('kuaisan', cfg)
    expect(chancesOf('kuaisan', cfg)).toBe(c)
    expect(c.get('big')).toEqual({ win: 108, draw: 0, total: 216 })
    expect(winOf(c, ['any_triple', 'triple_3', 'any_straight', 'pair_2', 'two_1_2'])).toEqual([
      6, 1, 24, 15, 30,
    ])
    expect(
      winOf(
        c,
        Array.from({ length: 16 }, (_, i) => `sum_${i + 3}`),
      ),
    ).toEqual([1, 3, 6, 10, 15, 21, 25, 27, 27, 25, 21, 15, 10, 6, 3, 1])
    expect(wins(c)).toBe(1224)
  })

  it('time-time colour: over 100 000 draws', () => {
    const c = chancesOf('shishicai', cfg)
    expect(chancesOf('shishicai', cfg)).toBe(c)
    expect(c.get('dragon')).toEqual({ win: 45_000, draw: 0, total: 100_000 })
    expect(winOf(c, ['tiger', 'tie', 'sum_big', 'sum_odd', 'b3_big', 'b5_d9'])).toEqual([
      45_000, 10_000, 50_000, 50_000, 50_000, 10_000,
    ])
    expect(wins(c)).toBe(1_800_000)
  })

  it('racing: over the 90 ordered pairs of distinct cars at the positions a bet reads', () => {
    const c = chancesOf('saiche', cfg)
    expect(chancesOf('saiche', cfg)).toBe(c)
    expect([...c.values()].every((x) => x.total === 90 && x.draw === 0)).toBe(true)
    for (let p = 1; p <= 5; p++) expect(winOf(c, [`p${p}_dragon`, `p${p}_tiger`]), `p${p}`).toEqual([45, 45])
    for (let p = 1; p <= 10; p++) {
      expect(winOf(c, [`p${p}_big`, `p${p}_odd`, `p${p}_c1`, `p${p}_c10`]), `p${p}`).toEqual([45, 45, 9, 9])
    }
    expect(winOf(c, ['top2_big', 'top2_small', 'top2_odd', 'top2_even'])).toEqual([40, 50, 50, 40])
    expect(wins(c)).toBe(3330)
  })
})

describe('chances kept', () => {
  it('fast three with triples voiding big and small: enumerated apart, the plain rules left as they were', () => {
    const voiding = gamesConfigSchema.parse({
      ...cfg,
      games: { ...cfg.games, kuaisan: { ...cfg.games.kuaisan, triple_voids_big_small: true } },
    })
    const c = chancesOf('kuaisan', voiding)
    // 444, 555 and 666 no longer win big, nor 111, 222 and 333 small; odd and even are as before.
    expect(winOf(c, ['big', 'small', 'odd', 'even', 'any_triple'])).toEqual([105, 105, 108, 108, 6])
    expect(winOf(chancesOf('kuaisan', cfg), ['big', 'small'])).toEqual([108, 108])
    expect(winOf(chancesOf('kuaisan', voiding), ['big', 'small'])).toEqual([105, 105])
  })
})

describe('odds from chances', () => {
  it('refuses a bet that can never win', () => {
    expect(() => oddsMilliFor({ win: 0, draw: 0, total: 10 }, 200)).toThrow(
      'a bet that can never win has no odds',
    )
    expect(oddsMilliFor({ win: 1, draw: 0, total: 2 }, 200)).toBe(1960)
  })

  it('gives each priced bet its chances and the house edge they leave', () => {
    const banker = pricedBets('qukuai', cfg).find((b) => b.type === 'banker')
    expect(banker).toEqual({
      type: 'banker',
      label: '庄',
      group: '庄闲',
      oddsMilli: 1954,
      winProbability: 4_625_280 / 10_485_760,
      refundProbability: 1_235_200 / 10_485_760,
      houseEdge: 1 - ((4_625_280 / 10_485_760) * 1954) / 1000 - 1_235_200 / 10_485_760,
    })
    // Asked again: the same rows.
    expect(pricedBets('qukuai', cfg).find((b) => b.type === 'banker')).toBe(banker)
  })
})
